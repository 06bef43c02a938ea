// The snapshot store: a bare git repository in cmv's data folder, created private (0700) on first
// use and marked as cmv's own, so cmv never writes into a repository that is not its store.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { dataDir } from '../data-dir.js';
import { Git, requireGit } from './git.js';
import { withLock, type HeldLock } from '../lock.js';
import { CmvError } from '../errors.js';

export const STORE_FORMAT = 1;

export interface Store {
  /** The bare repository. */
  dir: string;
  git: Git;
  /** Scratch files (fast-import streams, materialised logs); removed when done. */
  tmpDir: string;
  lockPath: string;
}

/** Settings of the store repository: integrity checks on everything that comes in, no detached gc. */
const STORE_CONFIG: [string, string][] = [
  ['cmv.store', 'true'],
  ['cmv.format', String(STORE_FORMAT)],
  ['core.logAllRefUpdates', 'false'],
  ['core.fsync', 'committed'],
  ['gc.autoDetach', 'false'],
  // cmv packs after each write itself (see maintain); no surprise gc inside a fetch.
  ['gc.auto', '0'],
  // Every write becomes a pack: fast-import then deltas each new page against the one before.
  ['fastimport.unpackLimit', '0'],
  ['transfer.fsckObjects', 'true'],
  ['fetch.fsckObjects', 'true'],
  ['receive.fsckObjects', 'true'],
];

export function storeDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'store');
}

function notAStore(dir: string, why: string): CmvError {
  return new CmvError('BAD_INPUT', `${dir} is not a cmv snapshot store (${why})`, {
    hint: 'move that folder away, or point CMV_HOME at another folder',
  });
}

/** `cmv.store = true` as `git config` writes it, read from the file itself (no git process on every open). */
function markedInFile(dir: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(dir, 'config'), 'utf8');
  } catch {
    return false;
  }
  let section = '';
  for (const line of text.split('\n')) {
    const header = /^\s*\[([A-Za-z0-9.-]+)\]\s*$/.exec(line);
    if (header) section = header[1].toLowerCase();
    else if (section === 'cmv' && /^\s*store\s*=\s*true\s*$/i.test(line)) return true;
  }
  return false;
}

async function isMarked(git: Git): Promise<boolean> {
  if (markedInFile(git.dir)) return true;
  // Anything the plain reading does not see (an include, a quoted value): git decides.
  try {
    return (await git.run(['config', '--get', 'cmv.store'])).trim() === 'true';
  } catch {
    return false;
  }
}

/** The store's settings as config file sections, appended in one write (one `git config` per key took a process each). */
function storeConfigText(): string {
  const sections = new Map<string, string[]>();
  for (const [key, value] of STORE_CONFIG) {
    const dot = key.indexOf('.');
    const lines = sections.get(key.slice(0, dot)) ?? [];
    lines.push(`\t${key.slice(dot + 1)} = ${value}\n`);
    sections.set(key.slice(0, dot), lines);
  }
  return [...sections].map(([section, lines]) => `[${section}]\n${lines.join('')}`).join('');
}

async function initStore(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const git = new Git(dir);
  // SHA-1 whatever init.defaultObjectFormat says: cmv computes page ids itself (git before 2.29
  // knows no --object-format and makes SHA-1 repositories anyway).
  await git.run(['init', '--bare', '--quiet', '--object-format=sha1', '.'], 'init').catch(() => git.run(['init', '--bare', '--quiet', '.'], 'init'));
  const config = join(dir, 'config');
  const text = await readFile(config, 'utf8');
  await writeFile(config, `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${storeConfigText()}`);
  // No hooks, no sample files: the store runs nothing of its own.
  await rm(join(dir, 'hooks'), { recursive: true, force: true });
  await rm(join(dir, 'description'), { force: true });
}

/**
 * Creates the store whole or not at all: it is built in a scratch folder beside and renamed into
 * place, so a process starting at the same time sees no store or a finished one, never a
 * half-made repository without its marker. The loser of a race drops its copy.
 */
async function createStore(dir: string): Promise<void> {
  const scratch = await mkdtemp(join(dirname(dir), '.store-init-'));
  try {
    await initStore(scratch);
    try {
      await rename(scratch, dir); // replaces an empty folder; fails when a store is there
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') throw error;
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Opens the store, creating it on first use; fails when the folder holds something else. */
export async function openStore(env: NodeJS.ProcessEnv = process.env): Promise<Store> {
  const root = dataDir(env);
  const dir = storeDir(env);
  // An existing store needs no check: every git call reports a missing git itself (gitMissing).
  if (!existsSync(join(dir, 'config'))) await requireGit();
  const store: Store = { dir, git: new Git(dir), tmpDir: join(dir, 'cmv-tmp'), lockPath: join(root, 'store.lock') };
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw notAStore(dir, 'it is a file');
  if (!existsSync(join(dir, 'config'))) {
    // (a store renamed into place since the first look is a store)
    if (existsSync(dir) && readdirSync(dir).length > 0 && !existsSync(join(dir, 'config'))) throw notAStore(dir, 'a folder that is not a git repository');
    await mkdir(root, { recursive: true, mode: 0o700 });
    await createStore(dir);
    if (!existsSync(join(dir, 'config'))) throw notAStore(dir, 'it could not be created');
  }
  if (!(await isMarked(store.git))) throw notAStore(dir, 'a git repository without the cmv marker');
  // Scratch folders of inits killed midway.
  for (const entry of readdirSync(root)) if (entry.startsWith('.store-init-')) await removeStaleInit(join(root, entry));
  return store;
}

async function removeStaleInit(path: string): Promise<void> {
  try {
    if (Date.now() - (await stat(path)).mtimeMs > 60_000) await rm(path, { recursive: true, force: true });
  } catch {
    // gone already
  }
}

/** Packs a store may hold before a write rolls them up. */
const MAINTAIN_AT_PACKS = 4;

/**
 * Up to this many packed bytes a roll-up repacks the whole store into one pack (tens of ms,
 * existing deltas reused); past it, only the small packs are rolled up (geometric repacking).
 */
const ONE_PACK_BYTES = 4 * 1024 * 1024;

/**
 * Rolls the small packs that snapshots leave into larger ones, where git finds deltas between
 * pages written by different snapshots: a rewritten last page becomes a delta of its earlier
 * version. A store up to ONE_PACK_BYTES is repacked whole; past it only the small packs are rolled
 * up (geometric repacking), so the cost follows the new data, not the store.
 */
export async function maintain(store: Store): Promise<void> {
  const packDir = join(store.dir, 'objects', 'pack');
  const packs = readdirSync(packDir).filter((f) => f.endsWith('.pack'));
  if (packs.length < MAINTAIN_AT_PACKS) return;
  const packed = packs.reduce((n, f) => n + statSync(join(packDir, f)).size, 0);
  if (packed <= ONE_PACK_BYTES) {
    // A small store becomes one pack: every meta.json, graph.json and re-cut last page can then
    // be a delta of its parent's, and one index replaces several. Unreachable objects (a removed
    // name's) stay, in the pack, until `cmv gc`.
    await store.git.run(['repack', '-a', '-d', '-q', '--keep-unreachable'], 'repack');
    return;
  }
  try {
    await store.git.run(['repack', '--geometric=2', '-d', '-q'], 'repack');
  } catch {
    await store.git.run(['repack', '-d', '-q'], 'repack'); // git before 2.32
  }
}

/** Runs `fn` holding the store's writer lock, with scratch files cleaned after. */
export async function withStoreLock<T>(store: Store, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  return withLock(store.lockPath, async (lock) => {
    await clearStaleGitLocks(store, lock.acquiredMs);
    // Only lock holders write scratch files: any found now belong to a writer that was killed.
    await rm(store.tmpDir, { recursive: true, force: true });
    try {
      return await fn(lock);
    } finally {
      await rm(store.tmpDir, { recursive: true, force: true });
    }
  });
}

/**
 * Git lock files (`refs/.../x.lock`, `packed-refs.lock`) older than our own lock were left by a
 * writer killed mid-update: under the store lock no live cmv can own them, so they go.
 */
async function clearStaleGitLocks(store: Store, acquiredMs: number): Promise<void> {
  const candidates = [join(store.dir, 'packed-refs.lock')];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.lock')) candidates.push(path);
    }
  };
  walk(join(store.dir, 'refs', 'cmv'));
  for (const path of candidates) {
    try {
      if ((await stat(path)).mtimeMs < acquiredMs - 1000) await rm(path, { force: true });
    } catch {
      // gone already
    }
  }
}
