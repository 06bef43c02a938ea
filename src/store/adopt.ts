// Taking in snapshots from elsewhere (a bundle, a remote) without trusting them: ref names are
// checked before anything is fetched, objects are fetched into a quarantine namespace with git's
// own object checks on, every new commit must look exactly like one cmv writes, and only then do
// names appear. A name that exists here already is never overwritten.

import { randomBytes } from 'node:crypto';
import type { Store } from './store.js';
import { listTree, readObjects } from './objects.js';
import { parseMeta, SIDE_FILES } from './meta.js';
import { readGraphJson } from '../graph/snapshot-graph.js';
import { pageIndexOf } from './pages.js';
import { BRANCH_REFS, INCOMING_REFS, SESSION_REFS, SNAPSHOT_REFS, parseRef, refOf, type RefKind } from './names.js';
import { listNames, refsUnder, updateRefs, ZERO_ID, type RefUpdate } from './refs.js';
import { CmvError } from '../errors.js';
import { MAX_META_BYTES, MAX_PAGE_BYTES, tooLarge } from './incoming-limits.js';

export interface OfferedRef {
  ref: string;
  id: string;
}

export interface AcceptedRef {
  kind: RefKind;
  name: string;
  id: string;
}

export interface Adopted {
  added: AcceptedRef[];
  unchanged: AcceptedRef[];
  /** Names that exist here with other content: left as they are. */
  clashes: (AcceptedRef & { local: string })[];
}

/** Checks offered ref names; any ref outside cmv's namespaces, or not a valid name, refuses all. */
export function checkOfferedRefs(offered: OfferedRef[], where: string): AcceptedRef[] {
  const refused: string[] = [];
  const accepted: AcceptedRef[] = [];
  for (const { ref, id } of offered) {
    const parsed = parseRef(ref);
    if (!parsed || !/^[0-9a-f]{40}$/.test(id) || ref.includes('..')) refused.push(ref);
    else accepted.push({ ...parsed, id });
  }
  if (refused.length > 0) {
    throw new CmvError(
      'BAD_INPUT',
      `refusing ${where}: ${refused.length} ref(s) are not cmv snapshot names: ${refused
        .slice(0, 5)
        .map((r) => JSON.stringify(r))
        .join(', ')}`,
      {
        hint: `cmv takes only ${SNAPSHOT_REFS}<name> and ${BRANCH_REFS}<name>, with plain names; nothing was imported`,
      },
    );
  }
  return accepted;
}

/** Fetches the accepted refs into a quarantine namespace; returns it. */
export async function fetchIncoming(store: Store, source: string, accepted: AcceptedRef[], from: 'bundle' | 'remote'): Promise<string> {
  // Under the store lock no other import runs: quarantines found now were left by a killed one.
  await dropQuarantine(store, INCOMING_REFS);
  const token = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const quarantine = `${INCOMING_REFS}${token}/`;
  if (accepted.length === 0) return quarantine;
  const refspecs = accepted.map((a) => `+${refOf(a.kind, a.name)}:${quarantine}${a.kind}/${a.name}`);
  try {
    await store.git.stream(['-c', 'transfer.fsckObjects=true', '-c', 'fetch.fsckObjects=true', 'fetch', '--no-tags', '--no-write-fetch-head', '--quiet', source, ...refspecs]);
  } catch (error) {
    const detail = error instanceof CmvError ? String(error.details ?? error.message) : String(error);
    // A remote may just be unreachable; a bundle that fails to unpack is damaged.
    if (from === 'remote' && !/fsck|error in (tree|commit|blob|tag)|dotdot|bad (tree|commit|object)|malformed|invalid/i.test(detail)) throw error;
    throw new CmvError('BAD_INPUT', `refusing ${source}: git's checks of its objects failed: ${detail.trim().split('\n')[0]}`, {
      hint: 'the content is damaged or was not made by cmv; nothing was imported',
      cause: error,
    });
  }
  return quarantine;
}

async function dropQuarantine(store: Store, quarantine: string): Promise<void> {
  const refs = await refsUnder(store, quarantine.slice(0, -1));
  if (refs.length)
    await updateRefs(
      store,
      refs.map((r) => ({ ref: r.ref, old: r.id })),
      'cmv: drop quarantine',
    );
}

/** Every commit the quarantined refs bring that the store did not have, checked like cmv's own. */
async function checkQuarantine(store: Store, quarantine: string): Promise<void> {
  // Every name must name a commit: a ref to a blob or tree would break every later listing.
  for (const line of (await store.git.run(['for-each-ref', '--format=%(objecttype) %(refname)', quarantine], 'for-each-ref')).split('\n')) {
    if (!line) continue;
    const [type, ref] = line.split(' ');
    if (type !== 'commit') {
      throw new CmvError('BAD_INPUT', `refusing ${ref.slice(quarantine.length)}: it names a ${type}, not a snapshot commit`, { hint: 'the content was not made by cmv; nothing was imported' });
    }
  }
  const out = await store.git.run(['rev-list', `--glob=${quarantine}*`, '--not', `--glob=${SNAPSHOT_REFS}*`, `--glob=${BRANCH_REFS}*`, `--glob=${SESSION_REFS}*`, '--'], 'rev-list');
  for (const id of out.split('\n').filter(Boolean)) {
    const files = await listTree(store.git, id);
    const where = `snapshot ${id.slice(0, 12)}`;
    // Sizes come from the tree listing: nothing large is read before it is known to be sane.
    for (const file of files) {
      const limit = file.path === 'meta.json' || SIDE_FILES.has(file.path) ? MAX_META_BYTES : MAX_PAGE_BYTES;
      if (file.size > limit) throw tooLarge(file.path, file.size, limit, where);
    }
    const meta = parseMeta((await readObjects(store.git, [`${id}:meta.json`])).get(`${id}:meta.json`));
    const side = files.filter((f) => SIDE_FILES.has(f.path));
    for (const file of side) {
      const text = (await readObjects(store.git, [file.id])).get(file.id);
      if (file.type !== 'blob' || !text) throw new CmvError('BAD_INPUT', `refusing snapshot ${id.slice(0, 12)}: ${file.path} is not a file`, { hint: 'nothing was imported' });
      readGraphJson(text.toString('utf8'), `${file.path} of ${id.slice(0, 12)}`);
    }
    const pages = files.filter((f) => f.path !== 'meta.json' && !SIDE_FILES.has(f.path));
    const indices = pages.map((f) => (f.type === 'blob' ? pageIndexOf(f.path) : undefined));
    if (indices.some((i) => i === undefined)) {
      const odd = pages[indices.findIndex((i) => i === undefined)];
      throw new CmvError('BAD_INPUT', `refusing snapshot ${id.slice(0, 12)}: unexpected path ${JSON.stringify(odd.path)} in its tree`, {
        hint: 'the content did not come from cmv; nothing was imported',
      });
    }
    const sorted = (indices as number[]).sort((a, b) => a - b);
    if (sorted.some((n, i) => n !== i)) throw new CmvError('BAD_INPUT', `refusing snapshot ${id.slice(0, 12)}: its pages are not contiguous`, { hint: 'nothing was imported' });
    const bytes = pages.reduce((n, p) => n + p.size, 0);
    if (bytes !== meta.facts.bytes)
      throw new CmvError('BAD_INPUT', `refusing snapshot ${id.slice(0, 12)}: its pages hold ${bytes} bytes, its meta says ${meta.facts.bytes}`, { hint: 'nothing was imported' });
  }
}

/** Checks what was fetched into `quarantine`, then gives the accepted refs their names. */
export async function adoptIncoming(store: Store, quarantine: string, accepted: AcceptedRef[]): Promise<Adopted> {
  try {
    await checkQuarantine(store, quarantine);
    const local = new Map((await listNames(store)).map((n) => [n.name, n]));
    const result: Adopted = { added: [], unchanged: [], clashes: [] };
    const updates: RefUpdate[] = [];
    const incomingMetas = await readObjects(
      store.git,
      accepted.map((a) => `${a.id}:meta.json`),
    );
    for (const ref of accepted) {
      const mine = local.get(ref.name);
      if (!mine) {
        result.added.push(ref);
        updates.push({ ref: refOf(ref.kind, ref.name), id: ref.id, old: ZERO_ID });
        local.set(ref.name, { ...ref, ref: refOf(ref.kind, ref.name) });
        continue;
      }
      // Our own snapshot, come back redacted from a push, is the same snapshot.
      const redactedFrom = parseMeta(incomingMetas.get(`${ref.id}:meta.json`)).redaction?.from;
      if (mine.id === ref.id || redactedFrom === mine.id) result.unchanged.push(ref);
      else result.clashes.push({ ...ref, local: mine.id });
    }
    if (updates.length) await updateRefs(store, updates, 'cmv: adopt incoming snapshots');
    return result;
  } finally {
    await dropQuarantine(store, quarantine);
  }
}
