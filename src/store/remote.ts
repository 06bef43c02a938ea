// Sharing snapshots through any git remote: `cmv remote add|remove|list`, `cmv push` (redacted
// by default, like export) and `cmv pull` (checked like an import). Only cmv's snapshot and
// branch refs travel; a session's lineage memory stays on this machine.

import type { Store } from './store.js';
import { maintain, withStoreLock } from './store.js';
import { nameProblem, refOf, BRANCH_REFS, SNAPSHOT_REFS } from './names.js';
import { prepareToShare, selectNames, type SharedSnapshot } from './bundle.js';
import type { RedactionReport } from './redact.js';
import { adoptIncoming, checkOfferedRefs, fetchIncoming, type Adopted } from './adopt.js';
import { existsSync } from 'node:fs';
import { CmvError } from '../errors.js';

export interface RemoteInfo {
  name: string;
  url: string;
}

export async function listRemotes(store: Store): Promise<RemoteInfo[]> {
  const remotes = await store.git.simple.getRemotes(true).catch(() => []);
  return remotes.map((r) => ({ name: r.name, url: r.refs.push || r.refs.fetch }));
}

/**
 * Whether `text` names a repository rather than a remote: a URL (`scheme://`, scp-like
 * `user@host:path`) or a path (with a slash, or a folder that exists).
 */
export function looksLikeRepository(text: string): boolean {
  if (text === '' || text.startsWith('-')) return false;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^[^\s/:]+@[^\s/:]+:/.test(text) || /^[^\s:]+:[^\s]/.test(text) || text.includes('/') || existsSync(text);
}

export async function addRemote(store: Store, name: string, url: string): Promise<RemoteInfo> {
  const problem = nameProblem(name);
  if (problem) throw new CmvError('USAGE', `"${name}" is not a valid remote name: ${problem}`, { hint: 'for example: cmv remote add team git@host:team/snapshots.git' });
  if (!looksLikeRepository(url)) {
    throw new CmvError('USAGE', `"${url}" is not a git URL or the path of a repository`, {
      hint: `cmv remote add <name> <url>: a name is one word (no spaces), then a URL git accepts or a path, e.g. cmv remote add ${name} git@host:team/snapshots.git`,
    });
  }
  return withStoreLock(store, async () => {
    if ((await listRemotes(store)).some((r) => r.name === name)) {
      throw new CmvError('CONFLICT', `a remote named "${name}" already exists`, { hint: '`cmv remote list` shows it; `cmv remote remove` removes it' });
    }
    await store.git.run(['remote', 'add', name, url], 'remote');
    return { name, url };
  });
}

export async function removeRemote(store: Store, name: string): Promise<RemoteInfo> {
  return withStoreLock(store, async () => {
    const remote = (await listRemotes(store)).find((r) => r.name === name);
    if (!remote) throw new CmvError('NOT_FOUND', `no remote named "${name}"`, { hint: '`cmv remote list` shows the remotes' });
    await store.git.run(['remote', 'remove', name], 'remote');
    return remote;
  });
}

/** The remote to use: the one named, else a URL or path given instead of a name, else the only one, else `origin`. */
export async function chooseRemote(store: Store, wanted?: string): Promise<RemoteInfo> {
  const remotes = await listRemotes(store);
  if (wanted) {
    const found = remotes.find((r) => r.name === wanted);
    if (found) return found;
    // git pushes to and fetches from a URL as well as a remote: no need to name it first.
    if (looksLikeRepository(wanted)) return { name: wanted, url: wanted };
    throw new CmvError('NOT_FOUND', `no remote named "${wanted}"`, { hint: `add it with \`cmv remote add ${wanted} <url>\`, or give the URL itself` });
  }
  if (remotes.length === 1) return remotes[0];
  const origin = remotes.find((r) => r.name === 'origin');
  if (origin) return origin;
  throw new CmvError('USAGE', remotes.length === 0 ? 'no remote to use' : 'several remotes and none named origin', {
    hint: remotes.length === 0 ? 'add one: cmv remote add origin <url>' : `name one: ${remotes.map((r) => r.name).join(', ')}`,
  });
}

export interface PushedRef extends SharedSnapshot {
  status: 'new' | 'updated' | 'up-to-date' | 'rejected';
  reason?: string;
}

export interface PushResult {
  remote: RemoteInfo;
  pushed: PushedRef[];
  redacted: boolean;
  redaction: RedactionReport;
}

const STATUS: Record<string, PushedRef['status']> = { '*': 'new', ' ': 'updated', '+': 'updated', '=': 'up-to-date', '!': 'rejected' };

export async function pushSnapshots(store: Store, remoteName: string | undefined, names: string[], options: { redact?: boolean } = {}): Promise<PushResult> {
  const remote = await chooseRemote(store, remoteName);
  const named = await selectNames(store, names);
  if (named.length === 0) throw new CmvError('NOT_FOUND', 'no snapshots to push', { hint: '`cmv snapshot <session>` makes one' });
  const redact = options.redact !== false;
  return withStoreLock(store, async () => {
    const { shared, redaction } = await prepareToShare(store, named, redact);
    const refspecs = shared.map((s) => `${s.id}:${refOf(s.kind, s.name)}`);
    const run = await store.git.stream(['push', '--porcelain', '--no-verify', remote.name, ...refspecs], { okCodes: [1] });
    const lines = run.stdout.toString('utf8').split('\n');
    const pushed: PushedRef[] = shared.map((s) => {
      const line = lines.find((l) => l.split('\t')[1]?.endsWith(`:${refOf(s.kind, s.name)}`));
      const [flag, , summary] = line ? line.split('\t') : ['!', '', run.stderr.trim().split('\n').pop() ?? 'not pushed'];
      const status = STATUS[flag] ?? 'rejected';
      return { ...s, status, reason: status === 'rejected' ? summary : undefined };
    });
    return { remote, pushed, redacted: redact, redaction };
  });
}

export async function pullSnapshots(store: Store, remoteName: string | undefined): Promise<Adopted & { remote: RemoteInfo }> {
  const remote = await chooseRemote(store, remoteName);
  return withStoreLock(store, async () => {
    const listed = (await store.git.stream(['ls-remote', remote.name, `${SNAPSHOT_REFS}*`, `${BRANCH_REFS}*`])).stdout.toString('utf8');
    const offered = listed
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [id, ref] = line.split('\t');
        return { id, ref };
      });
    const accepted = checkOfferedRefs(offered, `the refs of remote ${remote.name}`);
    const quarantine = await fetchIncoming(store, remote.name, accepted, 'remote');
    const adopted = await adoptIncoming(store, quarantine, accepted);
    await maintain(store);
    return { ...adopted, remote };
  });
}
