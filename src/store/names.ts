// Snapshot and branch names, and the refs they live under. A name is one ref component, checked
// here before git ever sees it, so a name is always a valid ref and never a path or a range.

import { CmvError } from '../errors.js';

export type RefKind = 'snapshot' | 'branch';

export const SNAPSHOT_REFS = 'refs/cmv/snapshots/';
export const BRANCH_REFS = 'refs/cmv/branches/';
/** The last snapshot or branch of each session cmv knows, so its next snapshot links to it. */
export const SESSION_REFS = 'refs/cmv/sessions/';
/** Where pulled and imported refs wait while they are checked. */
export const INCOMING_REFS = 'refs/cmv/incoming/';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Why `name` cannot be a snapshot name, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (!NAME.test(name)) return 'use letters, digits, ".", "_" and "-" (up to 100, starting with a letter or digit)';
  if (name.includes('..')) return 'a name cannot contain ".."';
  if (name.endsWith('.lock') || name.endsWith('.')) return 'a name cannot end with ".lock" or "."';
  return undefined;
}

export function checkName(name: string): string {
  const problem = nameProblem(name);
  if (problem) throw new CmvError('USAGE', `"${name}" is not a valid snapshot name: ${problem}`, { hint: 'for example -n auth-refactor-1' });
  return name;
}

export function refOf(kind: RefKind, name: string): string {
  return `${kind === 'snapshot' ? SNAPSHOT_REFS : BRANCH_REFS}${name}`;
}

/** The kind and name of a cmv ref, or undefined for any other ref. */
export function parseRef(ref: string): { kind: RefKind; name: string } | undefined {
  for (const [prefix, kind] of [
    [SNAPSHOT_REFS, 'snapshot'],
    [BRANCH_REFS, 'branch'],
  ] as const) {
    if (ref.startsWith(prefix)) {
      const name = ref.slice(prefix.length);
      return nameProblem(name) ? undefined : { kind, name };
    }
  }
  return undefined;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{7,99}$/;

export function sessionRef(sessionId: string): string | undefined {
  return SESSION_ID.test(sessionId) ? `${SESSION_REFS}${sessionId}` : undefined;
}

export function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The known name closest to `wanted`, when one is close enough to be a likely typo. */
export function closestName(wanted: string, names: string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const name of names) {
    const score = name.startsWith(wanted) || wanted.startsWith(name) ? 0.5 : distance(wanted.toLowerCase(), name.toLowerCase());
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best !== undefined && bestScore <= Math.max(2, Math.floor(wanted.length / 3)) ? best : undefined;
}

export function unknownName(wanted: string, names: string[]): CmvError {
  const close = closestName(wanted, names);
  return new CmvError('NOT_FOUND', `no snapshot or branch named "${wanted}"`, {
    hint: close ? `did you mean "${close}"? \`cmv list\` shows all snapshots` : '`cmv list` shows all snapshots and branches',
  });
}
