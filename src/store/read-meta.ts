// Reading the meta.json of stored commits, one or many at once (one cat-file for all).

import type { Store } from './store.js';
import { readObjects } from './objects.js';
import { parseMeta, type SnapshotMeta } from './meta.js';

export async function readMetas(store: Store, ids: string[]): Promise<Map<string, SnapshotMeta>> {
  const objects = await readObjects(
    store.git,
    ids.map((id) => `${id}:meta.json`),
  );
  const metas = new Map<string, SnapshotMeta>();
  for (const id of ids) metas.set(id, parseMeta(objects.get(`${id}:meta.json`)));
  return metas;
}

export async function readMeta(store: Store, id: string): Promise<SnapshotMeta> {
  return (await readMetas(store, [id])).get(id)!;
}

/**
 * The metas that read; the others with what is wrong with them, so one damaged snapshot (an
 * import from before import checked, a hand-made ref) does not hide every other one.
 */
export async function readMetasTolerant(store: Store, ids: string[]): Promise<{ metas: Map<string, SnapshotMeta>; unreadable: Map<string, string> }> {
  const objects = await readObjects(
    store.git,
    ids.map((id) => `${id}:meta.json`),
  );
  const metas = new Map<string, SnapshotMeta>();
  const unreadable = new Map<string, string>();
  for (const id of ids) {
    try {
      metas.set(id, parseMeta(objects.get(`${id}:meta.json`)));
    } catch (error) {
      unreadable.set(id, (error as Error).message);
    }
  }
  return { metas, unreadable };
}
