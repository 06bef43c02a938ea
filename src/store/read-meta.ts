// Reading the meta.json of stored commits, one or many at once (one cat-file for all).

import type { Store } from './store.js';
import { readObjects } from './objects.js';
import { parseMeta, type SnapshotMeta } from './meta.js';

export async function readMetas(store: Store, ids: string[]): Promise<Map<string, SnapshotMeta>> {
  const objects = await readObjects(store.git, ids.map((id) => `${id}:meta.json`));
  const metas = new Map<string, SnapshotMeta>();
  for (const id of ids) metas.set(id, parseMeta(objects.get(`${id}:meta.json`)));
  return metas;
}

export async function readMeta(store: Store, id: string): Promise<SnapshotMeta> {
  return (await readMetas(store, [id])).get(id)!;
}
