// `cmv rm` and `cmv gc`. Removing a name deletes only the ref; the content stays while a later
// snapshot or branch descends from it, and `gc` frees whatever no name reaches any more.

import type { Store } from './store.js';
import { withStoreLock } from './store.js';
import { listNames, sessionRefs, updateRefs, type RefUpdate } from './refs.js';
import { unknownName, type RefKind } from './names.js';

export interface RemoveResult {
  name: string;
  kind: RefKind;
  id: string;
  /** Other snapshots or branches descend from it, so its content stays after gc. */
  keptByDescendants: string[];
}

export async function removeName(store: Store, name: string): Promise<RemoveResult> {
  return withStoreLock(store, async () => {
    const names = await listNames(store);
    const target = names.find((n) => n.name === name);
    if (!target)
      throw unknownName(
        name,
        names.map((n) => n.name),
      );
    const updates: RefUpdate[] = [{ ref: target.ref, old: target.id }];
    // The session's lineage memory moves back to the parent, so its next snapshot links there.
    // (a damaged name, one naming a blob, has no parent: it just goes)
    const parent = target.type === undefined || target.type === 'commit' ? (await store.git.run(['rev-parse', '--verify', '--quiet', `${target.id}^`], 'rev-parse').catch(() => '')).trim() : '';
    for (const session of await sessionRefs(store)) {
      if (session.id === target.id) updates.push(parent ? { ref: session.ref, id: parent, old: target.id } : { ref: session.ref, old: target.id });
    }
    await updateRefs(store, updates, `cmv rm ${name}`);
    const keptByDescendants: string[] = [];
    for (const other of names) {
      if (other.name === name || target.type !== 'commit' || other.type !== 'commit') continue;
      const { code } = await store.git.stream(['merge-base', '--is-ancestor', target.id, other.id], { okCodes: [1] });
      if (code === 0) keptByDescendants.push(other.name);
    }
    return { name, kind: target.kind, id: target.id, keptByDescendants };
  });
}

export interface StoreSize {
  objects: number;
  bytes: number;
}

export async function storeSize(store: Store): Promise<StoreSize> {
  const out = await store.git.run(['count-objects', '-v'], 'count-objects');
  const field = (key: string) => Number(out.match(new RegExp(`^${key}: (\\d+)$`, 'm'))?.[1] ?? 0);
  return { objects: field('count') + field('in-pack'), bytes: (field('size') + field('size-pack') + field('size-garbage')) * 1024 };
}

export interface GcResult {
  before: StoreSize;
  after: StoreSize;
  /** False when the store was already one pack of exactly what names reach: nothing to do. */
  repacked: boolean;
}

/** Loose objects, packs, and objects in packs, as `git count-objects -v` says. */
async function packState(store: Store): Promise<{ loose: number; packs: number; inPack: number }> {
  const out = await store.git.run(['count-objects', '-v'], 'count-objects');
  const field = (key: string) => Number(out.match(new RegExp(`^${key}: (\\d+)$`, 'm'))?.[1] ?? 0);
  return { loose: field('count'), packs: field('packs'), inPack: field('in-pack') };
}

/** Objects every ref (names, lineage memory) reaches. */
async function reachableObjects(store: Store): Promise<number> {
  const { stdout } = await store.git.stream(['rev-list', '--objects', '--all']);
  let lines = 0;
  for (let i = stdout.indexOf(0x0a); i !== -1; i = stdout.indexOf(0x0a, i + 1)) lines++;
  return lines;
}

/**
 * Repacks everything reachable into one freshly compressed pack and drops the rest - when there
 * is something to do: loose objects, several packs, or packed objects no name reaches any more.
 * A store that is already one pack of what is reachable is left as it is (repacking it again
 * costs seconds and can only make it larger).
 */
export async function collectGarbage(store: Store): Promise<GcResult> {
  return withStoreLock(store, async () => {
    const before = await storeSize(store);
    await store.git.run(['pack-refs', '--all', '--prune'], 'pack-refs');
    await store.git.run(['reflog', 'expire', '--expire=now', '--all'], 'reflog');
    const state = await packState(store);
    const tidy = state.loose === 0 && state.packs <= 1 && state.inPack === (await reachableObjects(store));
    if (tidy) return { before, after: await storeSize(store), repacked: false };
    // -F recompresses what fast first writes stored quickly; -a -d drops unreachable packed objects.
    await store.git.run(['repack', '-a', '-d', '-F', '-q'], 'repack');
    await store.git.run(['prune', '--expire=now'], 'prune');
    const after = await storeSize(store);
    return { before, after, repacked: true };
  });
}
