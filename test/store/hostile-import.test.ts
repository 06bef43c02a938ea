// Bundles and stores made to hurt: refs to blobs, trees git's checks refuse, pages that expand to
// far more than a log holds, a meta steering writes elsewhere, FIFOs, leftovers of killed imports,
// and many processes opening a new store at once.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfStale, startCmv } from '../helpers/built-cli.js';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { exportBundle, importBundle } from '../../src/store/bundle.js';
import { listNames } from '../../src/store/refs.js';
import { listSnapshots } from '../../src/store/list.js';
import { removeName } from '../../src/store/maintenance.js';
import { checkStore } from '../../src/store/fsck.js';
import { snapshotGraph, snapshotLog } from '../../src/store/history.js';
import { parseMeta } from '../../src/store/meta.js';
import { refusal } from '../helpers/refusal.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { git, installSession, sandbox, SESSION_A, type Sandbox } from './helpers.js';

const OLD = new Date(Date.now() + 10 * 60 * 1000);
const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));

let here: Sandbox;
let scratch: string;
beforeEach(async () => {
  here = await sandbox();
  scratch = mkdtempSync(join(tmpdir(), 'cmv-hostile-bundle-'));
  git(scratch, 'init', '--bare', '--quiet', '.');
});
afterEach(() => {
  here.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

function hashObject(type: string, data: Buffer | string): string {
  const out = spawnSync('git', ['hash-object', '-w', '--literally', '-t', type, '--stdin'], { cwd: scratch, input: data, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  return out.stdout.trim();
}

function bundleOf(...refs: [string, string][]): string {
  for (const [ref, id] of refs) git(scratch, 'update-ref', ref, id);
  const file = join(scratch, `${Math.random().toString(36).slice(2)}.bundle`);
  git(scratch, 'bundle', 'create', '--quiet', file, ...refs.map(([ref]) => ref));
  return file;
}

function treeEntry(mode: string, name: string, id: string): Buffer {
  return Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(id, 'hex')]);
}

describe('import of hostile bundles', () => {
  it('refuses a ref that names a blob, and the store lists as before', async () => {
    const blob = hashObject('blob', 'not a snapshot\n');
    const file = bundleOf(['refs/cmv/snapshots/evil', blob]);
    const error = await refusal(importBundle(here.store, file));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/names a blob/);
    expect(await listNames(here.store)).toEqual([]);
    expect(await listSnapshots(here.store)).toEqual([]);
  });

  it("refuses a tree with duplicate entries (git's fsck, which bundles skip)", async () => {
    const blob = hashObject('blob', '{"type":"user"}\n');
    const tree = hashObject('tree', Buffer.concat([treeEntry('100644', 'meta.json', blob), treeEntry('100644', 'meta.json', blob)]));
    const commit = git(scratch, 'commit-tree', tree, '-m', 'x').trim();
    const error = await refusal(importBundle(here.store, bundleOf(['refs/cmv/snapshots/dup', commit])));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/checks of its objects failed|duplicate/i);
    expect(await listNames(here.store)).toEqual([]);
  });

  it('refuses a small bundle whose page expands past the page limit, from its recorded size', async () => {
    const big = join(scratch, 'zeros');
    writeFileSync(big, Buffer.alloc(65 * 1024 * 1024 + 1));
    const blob = git(scratch, 'hash-object', '-w', big).trim();
    const tree = hashObject('tree', treeEntry('100644', '0000', blob));
    const commit = git(scratch, 'commit-tree', tree, '-m', 'x').trim();
    const file = bundleOf(['refs/cmv/snapshots/bomb', commit]);
    expect(readFileSync(file).length).toBeLessThan(1024 * 1024);
    const error = await refusal(importBundle(here.store, file));
    expect(error.message).toMatch(/more than the/);
    expect(await listNames(here.store)).toEqual([]);
  });

  it('refuses a FIFO given as a bundle before taking the store lock', async () => {
    const fifo = join(scratch, 'x.bundle');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect((await refusal(importBundle(here.store, fifo))).message).toMatch(/FIFO/);
  });

  it('refuses a meta whose facts.cwd is relative (cmv branch would write there)', () => {
    const meta = {
      format: 1,
      kind: 'snapshot',
      name: 'x',
      tags: [],
      createdAt: new Date().toISOString(),
      source: { path: '/a.jsonl' },
      facts: { lines: 1, bytes: 1, cwd: '../../elsewhere' },
      growth: 'first',
    };
    expect(() => parseMeta(Buffer.from(JSON.stringify(meta)))).toThrow(/facts.cwd/);
    expect(() => parseMeta(Buffer.from(JSON.stringify({ ...meta, facts: { ...meta.facts, cwd: '/home/me/project' } })))).not.toThrow();
  });

  it('removes incoming refs a killed import left, on the next import', async () => {
    const path = installSession(here, '/tmp/cmv-samples/tally', SESSION_A, coding);
    await takeSnapshot(here.store, path, { name: 'one', now: OLD });
    const file = join(here.root, 'one.bundle');
    await exportBundle(here.store, ['one'], file, { redact: false });
    const id = git(here.store.dir, 'rev-parse', 'refs/cmv/snapshots/one').trim();
    git(here.store.dir, 'update-ref', 'refs/cmv/incoming/killed-1234/snapshot/one', id);
    expect((await checkStore(here.store)).problems.some((p) => p.message.includes('refs/cmv/incoming/killed-1234'))).toBe(true);
    await importBundle(here.store, file);
    expect(git(here.store.dir, 'for-each-ref', 'refs/cmv/incoming')).toBe('');
  });
});

describe('a store holding a damaged name', () => {
  it('lists the sound names, reports the bad one, lets rm remove it and fsck name it', async () => {
    const path = installSession(here, '/tmp/cmv-samples/tally', SESSION_A, coding);
    await takeSnapshot(here.store, path, { name: 'good', now: OLD });
    const blob = spawnSync('git', ['hash-object', '-w', '--stdin'], { cwd: here.store.dir, input: 'x\n', encoding: 'utf8' }).stdout.trim();
    git(here.store.dir, 'update-ref', 'refs/cmv/snapshots/bad', blob);
    const problems: string[] = [];
    expect((await listSnapshots(here.store, problems)).map((i) => i.name)).toEqual(['good']);
    expect(problems.join('\n')).toMatch(/"bad" names a blob/);
    expect((await checkStore(here.store)).problems.some((p) => p.message.includes('refs/cmv/snapshots/bad names a blob'))).toBe(true);
    // log and tree walk the sound names (git log over a ref naming a blob fails whole).
    expect((await snapshotLog(here.store)).map((e) => e.names)).toEqual([['good']]);
    expect((await snapshotGraph(here.store)).length).toBeGreaterThan(0);
    await removeName(here.store, 'bad');
    expect((await listNames(here.store)).map((n) => n.name)).toEqual(['good']);
  });
});

describe('first use of a store by many processes at once', () => {
  it('creates it once: every process opens it, none sees it half-made', async () => {
    await buildIfStale();
    const home = mkdtempSync(join(tmpdir(), 'cmv-first-use-'));
    try {
      const env = { ...process.env, CMV_HOME: join(home, 'cmv'), NO_COLOR: '1' };
      const results = await Promise.all(Array.from({ length: 12 }, () => startCmv(['list'], env).done));
      expect(results.filter((r) => r.code !== 0).map((r) => r.stderr.split('\n')[0])).toEqual([]);
      expect(git(join(home, 'cmv', 'store'), 'config', '--get', 'cmv.store').trim()).toBe('true');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a branch killed between writing its session and naming it', () => {
  it('is undone by the next branch: its session file goes, the sound one stays', async () => {
    const { branchSnapshot } = await import('../../src/store/branch.js');
    const { existsSync, mkdirSync } = await import('node:fs');
    const { hostname } = await import('node:os');
    const path = installSession(here, '/tmp/cmv-samples/tally', SESSION_A, coding);
    await takeSnapshot(here.store, path, { name: 'base', now: OLD });
    const first = await branchSnapshot(here.store, 'base', { env: here.env });
    // What a kill leaves: the written session and its marker, the process gone.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const orphan = first.path.replace(/[^/]+\.jsonl$/, '00000000-dead-4000-8000-000000000000.jsonl');
    writeFileSync(orphan, readFileSync(first.path));
    mkdirSync(join(here.store.dir, 'unfinished-branches'), { recursive: true });
    writeFileSync(join(here.store.dir, 'unfinished-branches', '00000000-dead-4000-8000-000000000000.json'), JSON.stringify({ path: orphan, pid: dead, host: hostname() }));
    const second = await branchSnapshot(here.store, 'base', { env: here.env });
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(first.path)).toBe(true);
    expect(existsSync(second.path)).toBe(true);
    expect(existsSync(join(here.store.dir, 'unfinished-branches', '00000000-dead-4000-8000-000000000000.json'))).toBe(false);
  });
});
