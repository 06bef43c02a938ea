import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, readdirSync, readFileSync, unlinkSync, writeFileSync, openSync, writeSync, closeSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { removeName, collectGarbage, storeSize } from '../../src/store/maintenance.js';
import { checkStore } from '../../src/store/fsck.js';
import { readMeta } from '../../src/store/read-meta.js';
import { listNames, updateRefs, ZERO_ID } from '../../src/store/refs.js';
import { writeCommit } from '../../src/store/commit.js';
import { listTree, readLog } from '../../src/store/objects.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { git, installSession, prefixCuts, sandbox, SESSION_A, SESSION_B, type Sandbox } from './helpers.js';

const OLD = new Date(Date.now() + 10 * 60 * 1000);
const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
const image = readFileSync(join(SAMPLE_DIR, 'large-read-image.jsonl'));
let box: Sandbox;

beforeEach(async () => {
  box = await sandbox();
});
afterEach(() => box.cleanup());

async function twoSnapshots(): Promise<{ path: string; a1: string; a2: string }> {
  const path = installSession(box, '/home/me/app', SESSION_A, coding.subarray(0, prefixCuts(coding, 2)[0]));
  const a1 = (await takeSnapshot(box.store, path, { name: 'a1', now: OLD })).id;
  writeFileSync(path, coding);
  const a2 = (await takeSnapshot(box.store, path, { name: 'a2', now: OLD })).id;
  return { path, a1, a2 };
}

describe('removeName', () => {
  it("removes a name, says what still keeps its content, and moves the session's memory back", async () => {
    const { path, a1 } = await twoSnapshots();
    const removed = await removeName(box.store, 'a1');
    expect(removed).toMatchObject({ name: 'a1', kind: 'snapshot', keptByDescendants: ['a2'] });
    expect((await listNames(box.store)).map((n) => n.name)).toEqual(['a2']);
    expect((await readLog(box.store.git, a1)).length).toBeGreaterThan(0); // still reachable through a2
    await removeName(box.store, 'a2');
    const next = await takeSnapshot(box.store, path, { now: OLD });
    expect(next.parent).toBe(a1);
  });

  it('suggests the closest name for a typo', async () => {
    await twoSnapshots();
    await expect(removeName(box.store, 'a3')).rejects.toMatchObject({ code: 'NOT_FOUND', hint: expect.stringMatching(/did you mean "a[12]"/) });
  });
});

describe('collectGarbage', () => {
  it('frees the content of removed snapshots that nothing else reaches', async () => {
    await twoSnapshots();
    await takeSnapshot(box.store, installSession(box, '/home/me/other', SESSION_B, image), { name: 'big', now: OLD });
    const before = await storeSize(box.store);
    await removeName(box.store, 'big');
    const result = await collectGarbage(box.store);
    expect(result.before.bytes).toBe(before.bytes);
    expect(result.after.bytes).toBeLessThan(before.bytes - 50 * 1024);
    expect((await readLog(box.store.git, 'refs/cmv/snapshots/a2')).equals(coding)).toBe(true);
    expect((await checkStore(box.store)).ok).toBe(true);
  });

  it('leaves a store that is already one pack of what names reach as it is', async () => {
    await twoSnapshots();
    const first = await collectGarbage(box.store);
    expect(first.repacked).toBe(true);
    const packDir = join(box.store.dir, 'objects', 'pack');
    const packs = readdirSync(packDir).sort();
    const second = await collectGarbage(box.store);
    expect(second.repacked).toBe(false);
    expect(second.after).toEqual(first.after);
    expect(readdirSync(packDir).sort()).toEqual(packs);
    // A removed name leaves packed objects nothing reaches: then there is work again.
    await removeName(box.store, 'a2');
    expect((await collectGarbage(box.store)).repacked).toBe(true);
  });
});

describe('checkStore', () => {
  it('passes a sound store and counts what it checked', async () => {
    await twoSnapshots();
    const report = await checkStore(box.store);
    expect(report).toMatchObject({ ok: true, problems: [], snapshots: 2 });
    expect(report.pages).toBeGreaterThanOrEqual(2);
    expect(report.objects).toBeGreaterThan(5);
  });

  it('finds a damaged pack', async () => {
    await twoSnapshots();
    await collectGarbage(box.store); // everything in one pack
    const packDir = join(box.store.dir, 'objects', 'pack');
    const pack = join(
      packDir,
      readdirSync(packDir).find((f) => f.endsWith('.pack'))!,
    );
    chmodSync(pack, 0o644); // git writes packs read-only
    const fd = openSync(pack, 'r+');
    const size = fstatSync(fd).size;
    writeSync(fd, Buffer.from('garbage!'), 0, 8, Math.floor(size / 2));
    closeSync(fd);
    const report = await checkStore(box.store);
    expect(report.ok).toBe(false);
    expect(report.problems.some((p) => p.kind === 'git')).toBe(true);
  });

  it('finds a missing page', async () => {
    const { a2 } = await twoSnapshots();
    const page = (await listTree(box.store.git, a2)).find((f) => f.path.startsWith('log/'))!;
    // Explode every pack into loose objects so one object can be removed by itself.
    const packDir = join(box.store.dir, 'objects', 'pack');
    for (const f of readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
      const data = readFileSync(join(packDir, f));
      unlinkSync(join(packDir, f));
      unlinkSync(join(packDir, f.replace(/\.pack$/, '.idx')));
      spawnSync('git', ['unpack-objects', '-q'], { cwd: box.store.dir, input: data });
    }
    unlinkSync(join(box.store.dir, 'objects', page.id.slice(0, 2), page.id.slice(2)));
    const report = await checkStore(box.store);
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.message).join('\n')).toContain(page.id);
    // Every problem, git's own findings too, names the snapshot that holds what is damaged.
    for (const p of report.problems) expect(p.snapshot, p.message).toMatch(/^a2$|^a2's history$|^a1$/);
    expect(report.problems.filter((p) => p.kind === 'git').every((p) => /^in a\d/.test(p.message))).toBe(true);
  });

  it('finds a snapshot whose pages do not add up to its meta, and a tree with a stranger in it', async () => {
    const { a2 } = await twoSnapshots();
    const meta = await readMeta(box.store, a2);
    const pages = (await listTree(box.store.git, a2)).filter((f) => f.path.startsWith('log/')).map((f) => f.id);
    const wrong = await writeCommit(box.store, pages, { ...meta, name: 'liar', facts: { ...meta.facts, bytes: meta.facts.bytes + 1 } }, []);
    await updateRefs(box.store, [{ ref: 'refs/cmv/snapshots/liar', id: wrong.commit, old: ZERO_ID }], 'test');
    const stranger = git(box.store.dir, 'mktree', '--missing').trim(); // the empty tree
    const tree = git(box.store.dir, 'rev-parse', `${a2}^{tree}`).trim();
    const evil = spawnTree(box.store.dir, `${git(box.store.dir, 'ls-tree', tree)}100644 blob ${pages[0]}\tevil.sh\n`);
    const commit = git(box.store.dir, 'commit-tree', evil, '-m', 'evil').trim();
    await updateRefs(box.store, [{ ref: 'refs/cmv/snapshots/evil', id: commit, old: ZERO_ID }], 'test');
    const report = await checkStore(box.store);
    expect(stranger).toMatch(/^[0-9a-f]{40}$/);
    expect(report.ok).toBe(false);
    expect(report.problems.some((p) => p.kind === 'size' && p.id === wrong.commit)).toBe(true);
    expect(report.problems.some((p) => p.kind === 'layout' && p.message.includes('evil.sh'))).toBe(true);
  });
});

function spawnTree(dir: string, listing: string): string {
  const result = spawnSync('git', ['mktree'], { cwd: dir, input: listing, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}
