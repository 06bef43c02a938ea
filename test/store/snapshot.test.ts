import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { readLog } from '../../src/store/objects.js';
import { readMeta } from '../../src/store/read-meta.js';
import { openStore } from '../../src/store/store.js';
import { resolveSnapshot } from '../../src/store/refs.js';
import { HAS_CORPUS, SAMPLE_DIR, corpusFile } from '../helpers/corpus.js';
import { git, installSession, prefixCuts, relocate, sandbox, SESSION_A, SESSION_B, type Sandbox } from './helpers.js';

const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
const OLD = new Date(Date.now() + 10 * 60 * 1000); // "now" well after the file was written: not active
let box: Sandbox;

beforeEach(async () => {
  box = await sandbox();
});
afterEach(() => box.cleanup());

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('takeSnapshot', () => {
  it('stores the log byte for byte and never touches the session file', async () => {
    const path = installSession(box, '/home/me/app', SESSION_A, coding);
    const before = { hash: sha(path), mtime: statSync(path).mtimeMs };
    const result = await takeSnapshot(box.store, path, { name: 'first', message: 'hello', tags: ['auth', 'wip'], now: OLD });
    expect(sha(path)).toBe(before.hash);
    expect(statSync(path).mtimeMs).toBe(before.mtime);
    expect((await readLog(box.store.git, result.id)).equals(coding)).toBe(true);
    expect(result).toMatchObject({ name: 'first', parent: null, sessionId: SESSION_A, bytes: coding.length, newBytes: coding.length, growth: 'first' });
    const meta = await readMeta(box.store, result.id);
    expect(meta).toMatchObject({ kind: 'snapshot', message: 'hello', tags: ['auth', 'wip'], source: { sessionId: SESSION_A, path } });
    expect(meta.facts.lines).toBe(coding.toString().split('\n').filter(Boolean).length);
    expect(meta.facts.versions).toEqual(['2.1.100']);
    expect(meta.facts.models.length).toBeGreaterThan(0);
    expect(meta.facts.tokens.context).toBeGreaterThan(0);
    expect(meta.facts.files.changed.length + meta.facts.files.read.length).toBeGreaterThan(0);
    expect(meta.cmvVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('stores only what was appended when the session grew, and links to the earlier snapshot', async () => {
    const cuts = prefixCuts(coding, 2);
    const path = installSession(box, '/home/me/app', SESSION_A, coding.subarray(0, cuts[0]));
    const first = await takeSnapshot(box.store, path, { now: OLD });
    writeFileSync(path, coding);
    const second = await takeSnapshot(box.store, path, { now: OLD });
    expect(second.parent).toBe(first.id);
    expect(second.growth).toBe('append');
    expect(second.newBytes).toBeLessThan(coding.length - cuts[0] + 128 * 1024);
    expect(second.newBytes).toBeGreaterThanOrEqual(coding.length - cuts[0]);
    expect(second.name).toBe(`${SESSION_A.slice(0, 8)}-2`);
    expect((await readLog(box.store.git, second.id)).equals(coding)).toBe(true);
    // The facts of the appended part add up to the facts of the whole log.
    const whole = await takeSnapshot(box.store, installSession(box, '/home/me/app', SESSION_B, coding), { now: OLD });
    const [grown, direct] = [await readMeta(box.store, second.id), await readMeta(box.store, whole.id)];
    expect({ ...grown.facts, sessionId: undefined }).toEqual({ ...direct.facts, sessionId: undefined });
  });

  it('writes the objects git itself would: the commit `git commit-tree` makes, a store `git fsck --strict` passes', async () => {
    const cuts = prefixCuts(coding, 2);
    const path = installSession(box, '/home/me/app', SESSION_A, coding.subarray(0, cuts[0]));
    const first = await takeSnapshot(box.store, path, { now: OLD, message: 'the first\n\nof two' });
    writeFileSync(path, coding);
    const second = await takeSnapshot(box.store, path, { now: OLD, tags: ['pre-compact'] });
    for (const id of [first.id, second.id]) {
      const text = git(box.store.dir, 'cat-file', 'commit', id);
      const tree = /^tree (\w+)$/m.exec(text)![1];
      const parents = [...text.matchAll(/^parent (\w+)$/gm)].map((m) => m[1]);
      const date = /^author cmv <cmv@localhost> (\d+ \+0000)$/m.exec(text)![1];
      const message = text.slice(text.indexOf('\n\n') + 2, -1);
      const env = {
        ...process.env,
        GIT_AUTHOR_NAME: 'cmv',
        GIT_AUTHOR_EMAIL: 'cmv@localhost',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: 'cmv',
        GIT_COMMITTER_EMAIL: 'cmv@localhost',
        GIT_COMMITTER_DATE: date,
      };
      const made = spawnSync('git', ['commit-tree', '--no-gpg-sign', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], { cwd: box.store.dir, env, encoding: 'utf8' });
      expect(made.stdout.trim()).toBe(id);
    }
    expect(git(box.store.dir, 'rev-parse', `${second.id}^`).trim()).toBe(first.id);
    git(box.store.dir, 'fsck', '--strict', '--no-dangling'); // throws on a fault
    expect((await readLog(box.store.git, second.id)).equals(coding)).toBe(true);
  });

  it('adds up to the facts of the whole log wherever the seam falls, a split API response included', async () => {
    const cuts = prefixCuts(coding, 9);
    const direct = await readMeta(box.store, (await takeSnapshot(box.store, installSession(box, '/home/me/app', SESSION_B, coding), { now: OLD })).id);
    const path = installSession(box, '/home/me/app', SESSION_A, coding.subarray(0, cuts[0]));
    await takeSnapshot(box.store, path, { now: OLD });
    let last;
    for (const cut of cuts.slice(1)) {
      writeFileSync(path, coding.subarray(0, cut));
      last = await takeSnapshot(box.store, path, { now: OLD });
      expect(last.growth).toBe('append');
    }
    const grown = await readMeta(box.store, last!.id);
    expect({ ...grown.facts, sessionId: undefined }).toEqual({ ...direct.facts, sessionId: undefined });
  });

  it.skipIf(!HAS_CORPUS)('makes an incremental snapshot cost the appended bytes, not the log', async () => {
    const big = readFileSync(corpusFile('spotter-4d5611e5-v2.1.39-compact-3MB.jsonl'));
    const cuts = prefixCuts(big, 10);
    const path = installSession(box, '/home/me/app', SESSION_A, big.subarray(0, cuts[8]));
    await takeSnapshot(box.store, path, { now: OLD });
    appendFileSync(path, big.subarray(cuts[8], cuts[9]));
    const second = await takeSnapshot(box.store, path, { now: OLD });
    const appended = cuts[9] - cuts[8];
    expect(second.newBytes).toBeLessThan(appended + 300 * 1024);
    expect(second.newBytes).toBeLessThan(big.length / 4);
  });

  it('moves no ref when its pages cannot be written, though its commit was written meanwhile; the store stays sound', async () => {
    const path = installSession(box, '/home/me/app', SESSION_A, coding);
    const packs = join(box.store.dir, 'objects', 'pack');
    spawnSync('rm', ['-rf', packs]);
    writeFileSync(packs, 'not a folder'); // git can write no pack: the pages fail, the loose commit objects do not
    await expect(takeSnapshot(box.store, path, { name: 'lost', now: OLD })).rejects.toThrow();
    spawnSync('rm', ['-f', packs]);
    mkdirSync(packs);
    expect(git(box.store.dir, 'for-each-ref').trim()).toBe('');
    // fsck throws on a fault; the commit written beside the failed pages is only dangling.
    expect(git(box.store.dir, 'fsck', '--strict')).toMatch(/dangling commit/);
    const again = await takeSnapshot(box.store, path, { name: 'kept', now: OLD });
    expect((await readLog(box.store.git, again.id)).equals(coding)).toBe(true);
  });

  it('calls a log that changed in place a rewrite, still linked to its last snapshot', async () => {
    const path = installSession(box, '/home/me/app', SESSION_A, coding);
    const first = await takeSnapshot(box.store, path, { now: OLD });
    writeFileSync(path, coding.subarray(coding.indexOf(10) + 1));
    const second = await takeSnapshot(box.store, path, { now: OLD });
    expect(second.growth).toBe('rewrite');
    expect(second.parent).toBe(first.id);
  });

  it('warns when the session was written in the last minutes', async () => {
    const path = installSession(box, '/home/me/app', SESSION_A, coding);
    const fresh = await takeSnapshot(box.store, path);
    expect(fresh.warnings.join()).toMatch(/may be active/);
    utimesSync(path, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
    const old = await takeSnapshot(box.store, path);
    expect(old.warnings).toEqual([]);
  });

  it('keeps a half-written last line as it is', async () => {
    const partial = Buffer.concat([coding, Buffer.from('{"parentUuid":"x","type":"assis')]);
    const path = installSession(box, '/home/me/app', SESSION_A, partial);
    const result = await takeSnapshot(box.store, path, { now: OLD });
    expect((await readLog(box.store.git, result.id)).equals(partial)).toBe(true);
    expect((await readMeta(box.store, result.id)).facts.terminated).toBe(false);
    appendFileSync(path, 'tant"}\n');
    expect((await takeSnapshot(box.store, path, { now: OLD })).growth).toBe('rewrite'); // re-modelled whole, never double counted
  });

  it('refuses a name that is taken, or not a valid name, before writing anything', async () => {
    const path = installSession(box, '/home/me/app', SESSION_A, coding);
    await takeSnapshot(box.store, path, { name: 'work', now: OLD });
    await expect(takeSnapshot(box.store, path, { name: 'work', now: OLD })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(takeSnapshot(box.store, path, { name: 'a..b', now: OLD })).rejects.toMatchObject({ code: 'USAGE' });
    await expect(takeSnapshot(box.store, join(box.root, 'missing.jsonl'), { now: OLD })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('suggests the closest name when a snapshot is not found', async () => {
    const path = installSession(box, '/home/me/app', SESSION_A, coding);
    await takeSnapshot(box.store, path, { name: 'auth-work', now: OLD });
    await expect(resolveSnapshot(box.store, 'auth-wrk')).rejects.toMatchObject({ code: 'NOT_FOUND', hint: expect.stringContaining('"auth-work"') });
  });

  it('records the project repository: HEAD, branch and dirty files', async () => {
    const project = join(box.root, 'project');
    mkdirSync(project);
    git(project, 'init', '-q', '-b', 'feature');
    writeFileSync(join(project, 'a.txt'), 'one\n');
    git(project, 'add', '.');
    git(project, 'commit', '-q', '-m', 'one');
    writeFileSync(join(project, 'a.txt'), 'two\n');
    const path = installSession(box, project, SESSION_A, relocate(coding, SESSION_A, project));
    const meta = await readMeta(box.store, (await takeSnapshot(box.store, path, { now: OLD })).id);
    expect(meta.project).toEqual({ root: project, head: git(project, 'rev-parse', 'HEAD').trim(), branch: 'feature', dirty: ['a.txt'] });
  });
});

describe('openStore', () => {
  it("creates the store private and marked as cmv's", async () => {
    expect(statSync(box.store.dir).mode & 0o777).toBe(0o700);
    expect(git(box.store.dir, 'config', '--get', 'cmv.store').trim()).toBe('true');
    // Every setting as git reads it (written to the config file in one go).
    for (const [key, value] of [
      ['cmv.format', '1'],
      ['core.logAllRefUpdates', 'false'],
      ['core.fsync', 'committed'],
      ['gc.auto', '0'],
      ['fastimport.unpackLimit', '0'],
      ['receive.fsckObjects', 'true'],
    ]) {
      expect(git(box.store.dir, 'config', '--get', key).trim()).toBe(value);
    }
    expect(git(box.store.dir, 'config', '--get', 'core.bare').trim()).toBe('true');
  });

  it('opens a store marked by git config in any spelling git accepts, and only such a store', async () => {
    const env = { ...box.env, CMV_HOME: join(box.root, 'spelled') };
    const dir = join(box.root, 'spelled', 'store');
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q', '--bare');
    const config = readFileSync(join(dir, 'config'), 'utf8');
    git(dir, 'config', 'cmv.store', 'false');
    await expect(openStore(env)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    writeFileSync(join(dir, 'config'), `${config}[cmv]\n\tstored = true\n[other]\n\tstore = true\n`);
    await expect(openStore(env)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    // Keys ignore case, and a quoted value is git's to read.
    writeFileSync(join(dir, 'config'), `${config}[CMV]\n\tStore = "true"\n`);
    await expect(openStore(env)).resolves.toMatchObject({ dir });
    writeFileSync(join(dir, 'config'), `${config}[cmv]\n  STORE=true\n`);
    await expect(openStore(env)).resolves.toMatchObject({ dir });
  });

  it('refuses a folder that is not a cmv store', async () => {
    const env = { ...box.env, CMV_HOME: join(box.root, 'other') };
    mkdirSync(join(box.root, 'other', 'store'), { recursive: true });
    writeFileSync(join(box.root, 'other', 'store', 'notes.txt'), 'mine');
    await expect(openStore(env)).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringMatching(/not a cmv snapshot store/) });
    const repo = join(box.root, 'repo');
    mkdirSync(join(repo, 'store'), { recursive: true });
    git(join(repo, 'store'), 'init', '-q', '--bare');
    await expect(openStore({ ...box.env, CMV_HOME: repo })).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
