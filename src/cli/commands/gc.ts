// `cmv gc`: repack the store and drop what no snapshot or branch reaches any more.

import { openStore } from '../../store/store.js';
import { collectGarbage, type GcResult } from '../../store/maintenance.js';
import type { Output } from '../output.js';
import { formatBytes, formatCount, plural } from '../format.js';

export async function gcCommand(out: Output): Promise<void> {
  const store = await openStore();
  out.render(await collectGarbage(store), renderGc);
}

export function renderGc(r: GcResult): string {
  if (!r.repacked) return `store already packed, nothing to free: ${plural(r.after.objects, 'object')}, ${formatBytes(r.after.bytes)}`;
  return `store ${formatBytes(r.before.bytes)} → ${formatBytes(r.after.bytes)}, ${formatCount(r.before.objects)} → ${plural(r.after.objects, 'object')}`;
}
