import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { branchSnapshot } from '../../src/store/branch.js';
import { exportBundle, importBundle } from '../../src/store/bundle.js';
import { addRemote, listRemotes, pullSnapshots, pushSnapshots, removeRemote } from '../../src/store/remote.js';
import { listNames, updateRefs, ZERO_ID } from '../../src/store/refs.js';
import { readLog } from '../../src/store/objects.js';
import { readMeta } from '../../src/store/read-meta.js';
import { checkStore } from '../../src/store/fsck.js';
import { writeCommit } from '../../src/store/commit.js';
import { gitBlobId } from '../../src/store/pages.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { git, installSession, lastUuidOf, prefixCuts, sandbox, SESSION_A, SESSION_B, type Sandbox } from './helpers.js';

const OLD = new Date(Date.now() + 10 * 60 * 1000);
const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
const KEY = `sk-ant-api03-${'Zq8'.repeat(14)}`;
const lastUuid = lastUuidOf(coding);
const secretLine = `${JSON.stringify({ type: 'user', message: { role: 'user', content: `use ${KEY} and password=Tr0ub4dor&3x` }, uuid: '77777777-0000-4000-8000-000000000001', parentUuid: lastUuid, sessionId: SESSION_A, cwd: '/tmp/cmv-samples/tally' })}\n`;

let here: Sandbox;
let there: Sandbox;

beforeEach(async () => {
  here = await sandbox();
  there = await sandbox();
});
afterEach(() => {
  here.cleanup();
  there.cleanup();
});

/** Two snapshots of a growing session (the second holds secrets) and a branch of the first. */
async function lineage(): Promise<string> {
  const path = installSession(here, '/tmp/cmv-samples/tally', SESSION_A, coding.subarray(0, prefixCuts(coding, 2)[0]));
  await takeSnapshot(here.store, path, { name: 'one', now: OLD });
  writeFileSync(path, Buffer.concat([coding, Buffer.from(secretLine)]));
  await takeSnapshot(here.store, path, { name: 'two', message: `deploy key ${KEY}`, now: OLD });
  await branchSnapshot(here.store, 'one', { name: 'one-lean', env: here.env });
  return path;
}

const storeText = async (box: Sandbox, name: string) => (await readLog(box.store.git, `refs/cmv/snapshots/${name}`)).toString('utf8');

describe('export and import', () => {
  it('carries snapshots with their lineage to another store, secrets redacted and reported', async () => {
    await lineage();
    const file = join(here.root, 'x.bundle');
    const exported = await exportBundle(here.store, ['two', 'one-lean'], file);
    expect(exported.redacted).toBe(true);
    expect(exported.redaction.byKind).toMatchObject({ 'anthropic-key': 2, password: 1 });
    expect(exported.snapshots.find((s) => s.name === 'two')?.findings?.total).toBe(3);
    expect(readFileSync(file).includes(Buffer.from(KEY))).toBe(false);

    const imported = await importBundle(there.store, file);
    expect(imported.added.map((a) => a.name).sort()).toEqual(['one-lean', 'two']);
    const text = await storeText(there, 'two');
    expect(text).not.toContain(KEY);
    expect(text).toContain('[REDACTED:anthropic-key]');
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .every((l) => {
          try {
            JSON.parse(l);
            return true;
          } catch {
            return false;
          }
        }),
    ).toBe(true);
    const meta = await readMeta(there.store, (await listNames(there.store)).find((n) => n.name === 'two')!.id);
    expect(meta.message).toBe('deploy key [REDACTED:anthropic-key]');
    expect(meta.redaction?.findings).toEqual({ 'anthropic-key': 2, password: 1 }); // the log's line and the message
    // The lineage came along: both names descend from the same first snapshot.
    const base = (name: string, kind = 'snapshots') => git(there.store.dir, 'rev-list', '--max-parents=0', `refs/cmv/${kind}/${name}`).trim();
    expect(base('two')).toBe(base('one-lean', 'branches'));
    expect((await checkStore(there.store)).ok).toBe(true);
    // Importing again changes nothing.
    const again = await importBundle(there.store, file);
    expect(again.added).toEqual([]);
    expect(again.unchanged.length).toBe(2);
  });

  it('exports the content as logged with redaction off', async () => {
    await lineage();
    const file = join(here.root, 'raw.bundle');
    const exported = await exportBundle(here.store, ['two'], file, { redact: false });
    expect(exported.redaction.total).toBe(0);
    await importBundle(there.store, file);
    expect(await storeText(there, 'two')).toContain(KEY);
  });

  it('refuses a damaged bundle', async () => {
    await lineage();
    const file = join(here.root, 'x.bundle');
    await exportBundle(here.store, ['two'], file);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(importBundle(there.store, file)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    expect(await listNames(there.store)).toEqual([]);
  });

  it("refuses a bundle with refs outside cmv's namespace, importing nothing", async () => {
    const repo = join(here.root, 'plain');
    git(here.root, 'init', '-q', repo);
    writeFileSync(join(repo, 'f'), 'x');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'x');
    git(repo, 'bundle', 'create', '-q', join(here.root, 'plain.bundle'), '--all');
    await expect(importBundle(there.store, join(here.root, 'plain.bundle'))).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining('not cmv snapshot names') });
    expect(await listNames(there.store)).toEqual([]);
  });

  it('refuses a bundle whose ref names hold ".."', async () => {
    await lineage();
    const file = join(here.root, 'x.bundle');
    await exportBundle(here.store, ['one'], file);
    const bytes = readFileSync(file);
    const headerEnd = bytes.indexOf('\n\n') + 2;
    const header = bytes.subarray(0, headerEnd).toString('utf8').replace('refs/cmv/snapshots/one', 'refs/cmv/snapshots/../../heads/one');
    writeFileSync(file, Buffer.concat([Buffer.from(header), bytes.subarray(headerEnd)]));
    await expect(importBundle(there.store, file)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    expect(await listNames(there.store)).toEqual([]);
  });

  it('refuses snapshots whose tree or meta could steer a write elsewhere', async () => {
    const path = await lineage();
    const base = (await listNames(here.store)).find((n) => n.name === 'one')!;
    const meta = await readMeta(here.store, base.id);
    const pages = git(here.store.dir, 'ls-tree', '-r', base.id)
      .split('\n')
      .filter((l) => l.includes('\tlog/'))
      .map((l) => l.split(/\s+/)[2]);
    // A meta whose cwd climbs out of the projects folder.
    const climb = await writeCommit(here.store, pages, { ...meta, name: 'climb', source: { ...meta.source, cwd: '/tmp/../../etc' } }, []);
    // A tree with a file besides meta.json and the pages.
    const tree = git(here.store.dir, 'rev-parse', `${base.id}^{tree}`).trim();
    const listing = `${git(here.store.dir, 'ls-tree', tree)}100644 blob ${gitBlobIdOf(here, 'echo pwned\n')}\thooks-post-checkout\n`;
    const stranger = spawnSync('git', ['mktree'], { cwd: here.store.dir, input: listing, encoding: 'utf8' }).stdout.trim();
    const strangerCommit = git(here.store.dir, 'commit-tree', stranger, '-m', 'x').trim();
    for (const [name, id] of [
      ['climb', climb.commit],
      ['stranger', strangerCommit],
    ]) {
      await updateRefs(here.store, [{ ref: `refs/cmv/snapshots/${name}`, id, old: ZERO_ID }], 'test');
      const file = join(here.root, `${name}.bundle`);
      await exportBundle(here.store, [name], file, { redact: false });
      await expect(importBundle(there.store, file)).rejects.toMatchObject({ code: 'BAD_INPUT' });
      expect(await listNames(there.store)).toEqual([]);
    }
    expect(path).toBeTruthy();
  });
});

describe('snapshots with the session graph beside their log', () => {
  it('are sound, shared with the graph redacted too, and refused when the graph is not one', async () => {
    await lineage();
    const base = (await listNames(here.store)).find((n) => n.name === 'two')!;
    const meta = await readMeta(here.store, base.id);
    const pages = git(here.store.dir, 'ls-tree', '-r', base.id)
      .split('\n')
      .filter((l) => l.includes('\tlog/'))
      .map((l) => l.split(/\s+/)[2]);
    const graph = { sessionId: SESSION_A, turns: 1, lastAsk: null, nodes: [{ id: 'n1', type: 'TASK', label: `rotate ${KEY}` }], edges: [] };
    const good = await writeCommit(here.store, pages, { ...meta, name: 'graphed' }, [], [{ name: 'graph.json', data: Buffer.from(JSON.stringify(graph)) }]);
    await updateRefs(here.store, [{ ref: 'refs/cmv/snapshots/graphed', id: good.commit, old: ZERO_ID }], 'test');
    expect((await checkStore(here.store)).ok).toBe(true);
    const bad = await writeCommit(here.store, pages, { ...meta, name: 'badgraph' }, [], [{ name: 'graph.json', data: Buffer.from('{"nodes": 1}') }]);
    await updateRefs(here.store, [{ ref: 'refs/cmv/snapshots/badgraph', id: bad.commit, old: ZERO_ID }], 'test');
    expect((await checkStore(here.store)).problems).toEqual([{ kind: 'graph', id: bad.commit, snapshot: 'badgraph', message: `graph.json of ${bad.commit.slice(0, 12)} is not a cmv session graph` }]);
    const file = join(here.root, 'graphed.bundle');
    await exportBundle(here.store, ['graphed'], file);
    await importBundle(there.store, file);
    const stored = git(there.store.dir, 'show', 'refs/cmv/snapshots/graphed:graph.json');
    expect(stored).not.toContain(KEY);
    expect(JSON.parse(stored).nodes[0].label).toBe('rotate [REDACTED:anthropic-key]');
    await exportBundle(here.store, ['badgraph'], join(here.root, 'bad.bundle'));
    await expect(importBundle(there.store, join(here.root, 'bad.bundle'))).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining('graph.json') });
  });
});

function gitBlobIdOf(box: Sandbox, text: string): string {
  const result = spawnSync('git', ['hash-object', '-w', '--stdin'], { cwd: box.store.dir, input: text, encoding: 'utf8' });
  expect(result.stdout.trim()).toBe(gitBlobId(Buffer.from(text)));
  return result.stdout.trim();
}

describe('push and pull', () => {
  it('shares snapshots through a bare repository, redacted, and pulls them into another store', async () => {
    await lineage();
    const remote = join(here.root, 'remote.git');
    git(here.root, 'init', '-q', '--bare', remote);
    await addRemote(here.store, 'origin', remote);
    expect(await listRemotes(here.store)).toEqual([{ name: 'origin', url: remote }]);
    const pushed = await pushSnapshots(here.store, undefined, []);
    expect(pushed.pushed.map((p) => [p.name, p.status]).sort()).toEqual([
      ['one', 'new'],
      ['one-lean', 'new'],
      ['two', 'new'],
    ]);
    expect(pushed.redaction.total).toBe(3);
    expect(git(remote, 'for-each-ref', '--format=%(refname)').trim().split('\n').sort()).toEqual(['refs/cmv/branches/one-lean', 'refs/cmv/snapshots/one', 'refs/cmv/snapshots/two']);
    expect(spawnSync('git', ['grep', '-q', KEY, 'refs/cmv/snapshots/two'], { cwd: remote }).status).toBe(1);
    // Pushing again is a no-op: redacted copies are the same commits every time.
    expect((await pushSnapshots(here.store, 'origin', ['two'])).pushed[0].status).toBe('up-to-date');

    await addRemote(there.store, 'team', remote);
    const pulled = await pullSnapshots(there.store, undefined);
    expect(pulled.added.map((a) => a.name).sort()).toEqual(['one', 'one-lean', 'two']);
    expect(await storeText(there, 'two')).not.toContain(KEY);
    expect((await checkStore(there.store)).ok).toBe(true);
    // A pulled snapshot branches like a local one.
    const branch = await branchSnapshot(there.store, 'two', { env: there.env });
    expect(readFileSync(branch.path, 'utf8')).toContain('[REDACTED:anthropic-key]');

    // Pulling our own snapshots back recognises their redacted copies.
    const back = await pullSnapshots(here.store, 'origin');
    expect(back.added).toEqual([]);
    expect(back.clashes).toEqual([]);
    expect(back.unchanged.length).toBe(3);
  });

  it('keeps a local snapshot when the remote has another of the same name', async () => {
    await lineage();
    const remote = join(here.root, 'remote.git');
    git(here.root, 'init', '-q', '--bare', remote);
    await addRemote(here.store, 'origin', remote);
    await pushSnapshots(here.store, 'origin', ['one']);
    const mine = await takeSnapshot(there.store, installSession(there, '/tmp/x', SESSION_B, coding), { name: 'one', now: OLD });
    await addRemote(there.store, 'origin', remote);
    const pulled = await pullSnapshots(there.store, 'origin');
    expect(pulled.clashes.map((c) => c.name)).toEqual(['one']);
    expect((await listNames(there.store)).find((n) => n.name === 'one')?.id).toBe(mine.id);
  });

  it('pulls from and pushes to a URL given instead of a remote name', async () => {
    await lineage();
    const remote = join(here.root, 'remote.git');
    git(here.root, 'init', '-q', '--bare', remote);
    const pushed = await pushSnapshots(here.store, remote, ['two']);
    expect(pushed.pushed.map((p) => p.status)).toEqual(['new']);
    const pulled = await pullSnapshots(there.store, remote);
    expect(pulled.added.map((a) => a.name)).toEqual(['two']);
    expect(pulled.remote.url).toBe(remote);
  });

  it('says an unreachable remote cannot be reached, not to run cmv fsck', async () => {
    await addRemote(there.store, 'far', join(here.root, 'no-such-repo.git'));
    const error = await pullSnapshots(there.store, 'far').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IO' });
    expect((error as { hint: string }).hint).toMatch(/check the remote's URL/);
    expect((error as { hint: string }).hint).not.toContain('fsck');
  });

  it('refuses a remote whose URL is no URL (`remote add bad name` takes "name" for the URL)', async () => {
    await expect(addRemote(here.store, 'bad', 'name')).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('"name" is not a git URL') });
    for (const url of ['git@github.com:me/snaps.git', 'https://example.com/snaps.git', './relative/repo.git', join(here.root, 'x.git')]) {
      await expect(addRemote(here.store, `r${url.length}`, url)).resolves.toMatchObject({ url });
    }
  });

  it('pushes secrets only when told to, and names remotes it knows', async () => {
    await lineage();
    const remote = join(here.root, 'remote.git');
    git(here.root, 'init', '-q', '--bare', remote);
    await expect(pushSnapshots(here.store, undefined, [])).rejects.toMatchObject({ code: 'USAGE' });
    await addRemote(here.store, 'origin', remote);
    await expect(addRemote(here.store, 'origin', remote)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(pushSnapshots(here.store, 'nope', [])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const raw = await pushSnapshots(here.store, 'origin', ['two'], { redact: false });
    expect(raw.redaction.total).toBe(0);
    expect(spawnSync('git', ['grep', '-q', KEY, 'refs/cmv/snapshots/two'], { cwd: remote }).status).toBe(0);
    await removeRemote(here.store, 'origin');
    expect(await listRemotes(here.store)).toEqual([]);
  });
});
