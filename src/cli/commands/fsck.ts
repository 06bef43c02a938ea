// `cmv fsck`: check every object and every page of the store; exit non-zero on damage.

import chalk from 'chalk';
import { openStore } from '../../store/store.js';
import { checkStore, type FsckReport } from '../../store/fsck.js';
import type { Output } from '../output.js';
import { exitCodeFor } from '../exit-codes.js';
import { formatCount, plural } from '../format.js';

export async function fsckCommand(out: Output): Promise<number> {
  const store = await openStore();
  const report = await checkStore(store);
  out.render(report, renderFsck);
  return report.ok ? 0 : exitCodeFor('VERIFY_FAILED');
}

export function renderFsck(r: FsckReport): string {
  const summary = `${plural(r.snapshots, 'snapshot')}, ${formatCount(r.pages)} pages, ${plural(r.objects, 'object')}`;
  if (r.ok) return `${chalk.green('ok')}: ${summary} checked`;
  return [`${chalk.red(`${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}`)} in ${summary}:`, ...r.problems.map((p) => `  ${p.kind}: ${p.message}`)].join('\n');
}
