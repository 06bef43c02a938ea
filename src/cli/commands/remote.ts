// `cmv remote add|remove|list`: the git remotes snapshots are pushed to and pulled from.

import { openStore } from '../../store/store.js';
import { addRemote, listRemotes, removeRemote, type RemoteInfo } from '../../store/remote.js';
import type { Output } from '../output.js';
import { table } from '../format.js';

export async function remoteAddCommand(name: string, url: string, out: Output): Promise<void> {
  const store = await openStore();
  out.render(await addRemote(store, name, url), (r) => `added remote ${r.name} → ${r.url}`);
}

export async function remoteRemoveCommand(name: string, out: Output): Promise<void> {
  const store = await openStore();
  out.render(await removeRemote(store, name), (r) => `removed remote ${r.name} (${r.url})`);
}

export async function remoteListCommand(out: Output): Promise<void> {
  const store = await openStore();
  out.render(await listRemotes(store), renderRemotes);
}

export function renderRemotes(remotes: RemoteInfo[]): string {
  if (remotes.length === 0) return 'no remotes: `cmv remote add origin <url>` adds one';
  return table(remotes.map((r) => [r.name, r.url]));
}
