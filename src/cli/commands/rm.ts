// `cmv rm <name>`: removes a snapshot or branch name; `cmv gc` then frees what nothing reaches.

import { openStore } from '../../store/store.js';
import { removeName, type RemoveResult } from '../../store/maintenance.js';
import type { Output } from '../output.js';

export async function rmCommand(name: string, out: Output): Promise<void> {
  const store = await openStore();
  out.render(await removeName(store, name), renderRemove);
}

export function renderRemove(r: RemoveResult): string {
  const kept = r.keptByDescendants.length ? `its content stays: ${r.keptByDescendants.join(', ')} descend${r.keptByDescendants.length === 1 ? 's' : ''} from it` : '`cmv gc` frees its content';
  return `removed ${r.kind} ${r.name} (${r.id.slice(0, 12)}); ${kept}`;
}
