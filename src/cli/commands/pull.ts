// `cmv pull [REMOTE]`: take in the remote's snapshots, checked like an import.

import { openStore } from '../../store/store.js';
import { pullSnapshots } from '../../store/remote.js';
import type { Output } from '../output.js';
import { renderAdopted } from './import.js';

export async function pullCommand(remote: string | undefined, out: Output): Promise<void> {
  const store = await openStore();
  const result = await pullSnapshots(store, remote);
  for (const clash of result.clashes) out.warn(`kept your ${clash.kind} "${clash.name}": the one on ${result.remote.name} differs (${clash.id.slice(0, 12)})`);
  out.render(result, (r) => renderAdopted(`pulled from ${r.remote.name}`, r));
}
