// Names as git refs: listing them, resolving what a user typed, and changing them only with
// `git update-ref <ref> <new> <old>`, so a ref moves only from the value its writer saw.

import type { Store } from './store.js';
import { BRANCH_REFS, SESSION_REFS, SNAPSHOT_REFS, parseRef, unknownName, type RefKind } from './names.js';
import { CmvError } from '../errors.js';

export const ZERO_ID = '0'.repeat(40);

export interface NamedRef {
  name: string;
  kind: RefKind;
  ref: string;
  id: string;
  /** What git says the ref names: 'commit' for every ref cmv writes; anything else is damage to report. */
  type?: string;
}

export async function refsUnder(store: Store, ...prefixes: string[]): Promise<{ ref: string; id: string; type: string }[]> {
  const out = await store.git.run(['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)', ...prefixes], 'for-each-ref');
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(' ');
      const second = line.indexOf(' ', space + 1);
      return { id: line.slice(0, space), type: line.slice(space + 1, second), ref: line.slice(second + 1) };
    });
}

/** Every snapshot and branch name, sorted by name. */
export async function listNames(store: Store): Promise<NamedRef[]> {
  return namesOf(await refsUnder(store, SNAPSHOT_REFS.slice(0, -1), BRANCH_REFS.slice(0, -1)));
}

/** Every name, and the commit `ref` names (undefined when it does not exist): one git call. */
export async function namesAnd(store: Store, ref: string): Promise<{ names: NamedRef[]; id: string | undefined }> {
  const refs = await refsUnder(store, SNAPSHOT_REFS.slice(0, -1), BRANCH_REFS.slice(0, -1), ref);
  return { names: namesOf(refs), id: refs.find((r) => r.ref === ref)?.id };
}

function namesOf(refs: { ref: string; id: string; type: string }[]): NamedRef[] {
  const named: NamedRef[] = [];
  for (const { ref, id, type } of refs) {
    const parsed = parseRef(ref);
    if (parsed) named.push({ ...parsed, ref, id, type });
  }
  return named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export async function findName(store: Store, name: string): Promise<NamedRef | undefined> {
  return (await listNames(store)).find((n) => n.name === name);
}

export interface Resolved {
  id: string;
  /** Present when the argument was a name. */
  named?: NamedRef;
}

/** A snapshot or branch by name, or any stored commit by an id prefix of 7+ hex digits. */
export async function resolveSnapshot(store: Store, arg: string): Promise<Resolved> {
  const names = await listNames(store);
  const named = names.find((n) => n.name === arg);
  if (named) return { id: named.id, named };
  if (/^[0-9a-f]{7,40}$/i.test(arg)) {
    try {
      const id = (await store.git.run(['rev-parse', '--verify', '--quiet', `${arg}^{commit}`], 'rev-parse')).trim();
      if (id) return { id, named: names.find((n) => n.id === id) };
    } catch {
      // not a commit: fall through to the name error
    }
  }
  throw unknownName(
    arg,
    names.map((n) => n.name),
  );
}

export function nameTaken(name: string): CmvError {
  return new CmvError('CONFLICT', `a snapshot or branch named "${name}" already exists`, {
    hint: 'choose another name with -n, or remove the old one with `cmv rm`',
  });
}

export interface RefUpdate {
  ref: string;
  /** The new value; undefined deletes the ref. */
  id?: string;
  /** The value the writer saw; ZERO_ID: the ref must not exist yet. */
  old: string;
}

/** Applies several ref updates as one transaction: all of them or, if any ref moved meanwhile, none. */
export async function updateRefs(store: Store, updates: RefUpdate[], reason: string): Promise<void> {
  const lines = ['start'];
  for (const u of updates) lines.push(u.id === undefined ? `delete ${u.ref} ${u.old}` : `update ${u.ref} ${u.id} ${u.old}`);
  lines.push('prepare', 'commit', '');
  try {
    await store.git.stream(['update-ref', '-m', reason, '--stdin'], { input: [lines.join('\n')] });
  } catch (error) {
    throw new CmvError('CONFLICT', `${updates.map((u) => u.ref).join(', ')} changed while cmv was writing`, {
      hint: 'another process wrote the store at the same time: try again',
      cause: error,
      details: error instanceof CmvError ? error.details : undefined,
    });
  }
}

/** Moves a ref from `old` (ZERO_ID: must not exist) to `id`, atomically. */
export async function updateRef(store: Store, ref: string, id: string, old: string, reason: string): Promise<void> {
  try {
    await store.git.run(['update-ref', '-m', reason, ref, id, old], 'update-ref');
  } catch (error) {
    const text = error instanceof CmvError ? String(error.details ?? error.message) : String(error);
    if (/exists|is at|expected|unable to resolve|cannot lock/i.test(text)) {
      throw new CmvError('CONFLICT', `${ref} changed while cmv was writing it`, { hint: 'another cmv process wrote it at the same time: try again', cause: error });
    }
    throw error;
  }
}

export async function readRef(store: Store, ref: string): Promise<string | undefined> {
  try {
    const out = (await store.git.run(['rev-parse', '--verify', '--quiet', ref], 'rev-parse')).trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

export async function sessionRefs(store: Store): Promise<{ ref: string; id: string; sessionId: string }[]> {
  return (await refsUnder(store, SESSION_REFS.slice(0, -1))).map((r) => ({ ref: r.ref, id: r.id, sessionId: r.ref.slice(SESSION_REFS.length) }));
}

/** The error for names that do not exist, suggesting the closest known one. */
export function unknownNames(missing: string[], all: NamedRef[]): CmvError {
  const error = unknownName(
    missing[0],
    all.map((n) => n.name),
  );
  if (missing.length === 1) return error;
  return new CmvError('NOT_FOUND', `no snapshots or branches named ${missing.map((m) => `"${m}"`).join(', ')}`, { hint: error.hint });
}
