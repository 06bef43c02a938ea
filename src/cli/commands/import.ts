// `cmv import FILE`: snapshots from a bundle, checked before any name appears.

import chalk from 'chalk';
import { openStore } from '../../store/store.js';
import { importBundle } from '../../store/bundle.js';
import type { Adopted } from '../../store/adopt.js';
import type { Output } from '../output.js';

export async function importCommand(file: string, out: Output): Promise<void> {
  const store = await openStore();
  const result = await importBundle(store, file);
  for (const clash of result.clashes) out.warn(`kept your ${clash.kind} "${clash.name}": the imported one with that name differs (${clash.id.slice(0, 12)})`);
  out.render(result, (r) => renderAdopted(`imported from ${r.file}`, r));
}

export function renderAdopted(title: string, r: Adopted): string {
  const lines = [`${title}: ${r.added.length} new, ${r.unchanged.length} already here, ${r.clashes.length} name clash${r.clashes.length === 1 ? '' : 'es'}`];
  for (const a of r.added) lines.push(`  ${chalk.green('+')} ${a.kind} ${chalk.cyan(a.name)} ${chalk.dim(a.id.slice(0, 12))}`);
  for (const c of r.clashes) lines.push(`  ${chalk.yellow('!')} ${c.kind} ${c.name}: kept yours (${c.local.slice(0, 12)}), theirs is ${c.id.slice(0, 12)}`);
  return lines.join('\n');
}
