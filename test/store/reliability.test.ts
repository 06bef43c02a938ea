// The store under concurrency and crashes: real `cmv snapshot` processes, started together or
// killed with SIGKILL part way, and the store checked by `cmv fsck` after each.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { acquireLock } from '../../src/lock.js';
import { updateRefs, readRef, ZERO_ID } from '../../src/store/refs.js';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { SAMPLE_DIR, sampleFiles } from '../helpers/corpus.js';
import { installSession, prefixCuts, sandbox, SESSION_A, SESSION_B, type Sandbox } from './helpers.js';
import { ROOT, buildIfStale, runCmv, startCmv } from '../helpers/built-cli.js';

/** cmv as the store's tests run it: this process's environment, colour off. */
const cmvSync = (args: string[], env: NodeJS.ProcessEnv) => runCmv(args, { ...env, NO_COLOR: '1' });
const cmvAsync = (args: string[], env: NodeJS.ProcessEnv) => startCmv(args, { ...env, NO_COLOR: '1' });

const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
let box: Sandbox;
let bigSession: string;

beforeAll(async () => {
  await buildIfStale();
  box = await sandbox();
  // A real ~12 MB session: the sample sessions stitched end to end (bench/stitch.js).
  const stitched = join(box.root, 'stitched.jsonl');
  const made = spawnSync(process.execPath, [join(ROOT, 'bench', 'stitch.js'), stitched, '12', ...sampleFiles()], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  bigSession = installSession(box, '/tmp/cmv-samples/tally', SESSION_B, readFileSync(stitched));
}, 180_000);
afterAll(() => box?.cleanup());

function fsck(): { ok: boolean; problems: unknown[] } {
  const run = cmvSync(['fsck', '--json'], box.env);
  expect(run.stderr).toBe('');
  const report = JSON.parse(run.stdout) as { ok: boolean; problems: unknown[] };
  expect(run.code).toBe(report.ok ? 0 : 6);
  return report;
}

describe('concurrent snapshots', () => {
  it('never corrupt the store: `cmv snapshot` processes started at once all land', async () => {
    const path = installSession(box, '/tmp/cmv-samples/tally', SESSION_A, coding);
    const names = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const runs = await Promise.all([
        cmvAsync(['snapshot', path, '--json'], box.env).done,
        cmvAsync(['snapshot', bigSession, '--json'], box.env).done,
        cmvAsync(['snapshot', path, '--json'], box.env).done,
      ]);
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(0);
        names.add((JSON.parse(run.stdout) as { name: string }).name);
      }
      expect(fsck()).toEqual(expect.objectContaining({ ok: true }));
    }
    expect(names.size).toBe(12);
    // The session's memory points at its last snapshot, and each snapshot links to the one before.
    const log = JSON.parse(cmvSync(['log', `${SESSION_A.slice(0, 8)}-8`, '--json'], box.env).stdout) as { names: string[] }[];
    expect(log.length).toBe(8);
  }, 180_000);

  it('of a log that grows meanwhile follow its content: each records an append to the one before, never a rewrite', async () => {
    const id = '5e5c0000-aaaa-4000-8000-000000000000';
    const path = installSession(box, '/tmp/cmv-samples/tally', id, coding.subarray(0, prefixCuts(coding, 2)[0]));
    const rest = coding.subarray(prefixCuts(coding, 2)[0]).toString('utf8').split('\n').filter(Boolean);
    let next = 0;
    const writer = setInterval(() => {
      if (next < rest.length) appendFileSync(path, `${rest[next++]}\n`);
    }, 5);
    try {
      const runs = await Promise.all(Array.from({ length: 6 }, () => cmvAsync(['snapshot', path, '--json'], box.env).done));
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
    } finally {
      clearInterval(writer);
    }
    const log = JSON.parse(cmvSync(['log', `${id.slice(0, 8)}-6`, '--json'], box.env).stdout) as { meta: { growth: string; facts: { bytes: number } } }[];
    expect(log.length).toBe(6);
    expect(log.map((e) => e.meta.growth).filter((g) => g === 'rewrite')).toEqual([]);
    const sizes = log.map((e) => e.meta.facts.bytes).reverse();
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
  }, 180_000);

  it('let exactly one of two processes take the same name; the other fails cleanly', async () => {
    const path = installSession(box, '/tmp/cmv-samples/tally', SESSION_A, coding);
    const runs = await Promise.all([cmvAsync(['snapshot', path, '-n', 'race'], box.env).done, cmvAsync(['snapshot', path, '-n', 'race'], box.env).done]);
    expect(runs.map((r) => r.code).sort()).toEqual([0, 8]);
    expect(runs.find((r) => r.code === 8)!.stderr).toMatch(/already exists/);
    expect(fsck().ok).toBe(true);
  }, 60_000);
});

describe('a snapshot killed part way', () => {
  it('leaves a store that fsck passes, and the next snapshot works', async () => {
    // How long a snapshot of this session takes here (the faster of two warm runs).
    const durations: number[] = [];
    for (const name of ['timing-1', 'timing-2']) {
      writeFileSync(bigSession, Buffer.concat([readFileSync(bigSession), coding]));
      const timed = Date.now();
      const run = cmvSync(['snapshot', bigSession, '-n', name], box.env);
      expect(run.code, run.stderr).toBe(0);
      durations.push(Date.now() - timed);
    }
    const duration = Math.min(...durations);
    const kills = 10;
    let killed = 0;
    for (let i = 0; i < kills; i++) {
      // Grow the session so each run has new pages to write, then kill at a spread of moments.
      writeFileSync(bigSession, Buffer.concat([readFileSync(bigSession), coding]));
      const { child, done } = cmvAsync(['snapshot', bigSession], box.env);
      const delay = Math.round(((i + Math.random()) / kills) * duration * 0.9);
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      if ((await done).code === null) killed++;
      const report = fsck();
      expect(report.problems).toEqual([]);
    }
    expect(killed).toBeGreaterThanOrEqual(3); // runs died part way, not only after finishing
    const after = cmvSync(['snapshot', bigSession, '-n', 'after-kills', '--json'], box.env);
    expect(after.code, after.stderr).toBe(0);
    const shown = cmvSync(['show', 'after-kills', '--json'], box.env);
    expect(JSON.parse(shown.stdout).meta.facts.bytes).toBe(readFileSync(bigSession).length);
    expect(fsck().ok).toBe(true);
  }, 300_000);
});

describe('the store lock', () => {
  it('breaks a lock left by a process that died, and waits for a live one', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
    const lockPath = join(box.root, 'test.lock');
    writeFileSync(lockPath, JSON.stringify({ pid: dead.pid, host: (await import('node:os')).hostname(), token: 'x', since: '' }));
    const lock = await acquireLock(lockPath, 2000);
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      await lock.release();
      writeFileSync(lockPath, JSON.stringify({ pid: sleeper.pid, host: (await import('node:os')).hostname(), token: 'y', since: '' }));
      await expect(acquireLock(lockPath, 500)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/busy/) });
    } finally {
      sleeper.kill('SIGKILL');
    }
    expect(existsSync(lockPath)).toBe(true);
  });

  it('does not break the lock of a dead owner whose process group (its git children) still runs', async () => {
    // A group leader that exits at once, leaving a child in its group: cmv killed while git writes.
    const leader = spawn('sh', ['-c', 'sleep 20 & exit 0'], { detached: true, stdio: 'ignore' });
    await new Promise((r) => leader.once('exit', r));
    const lockPath = join(box.root, 'group.lock');
    const host = (await import('node:os')).hostname();
    try {
      writeFileSync(lockPath, JSON.stringify({ pid: leader.pid, host, token: 'g', since: '', group: true }));
      await expect(acquireLock(lockPath, 500)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/busy/) });
    } finally {
      process.kill(-leader.pid!, 'SIGKILL');
    }
    await new Promise((r) => setTimeout(r, 200));
    const lock = await acquireLock(lockPath, 2000);
    await lock.release();
  });

  it('clears git lock files a killed writer left, so refs can move again', async () => {
    const path = installSession(box, '/tmp/cmv-samples/tally', SESSION_A, coding);
    const ref = join(box.store.dir, 'refs', 'cmv', 'sessions');
    mkdirSync(ref, { recursive: true });
    writeFileSync(join(ref, `${SESSION_A}.lock`), '');
    await new Promise((r) => setTimeout(r, 1100));
    const result = await takeSnapshot(box.store, path, { now: new Date(Date.now() + 600_000) });
    expect(await readRef(box.store, `refs/cmv/sessions/${SESSION_A}`)).toBe(result.id);
    expect(readdirSync(ref).some((f) => f.endsWith('.lock'))).toBe(false);
  });
});

describe('ref updates', () => {
  it('move a ref only from the value the writer saw', async () => {
    const path = installSession(box, '/tmp/cmv-samples/tally', SESSION_A, coding);
    const a = await takeSnapshot(box.store, path, { name: 'cas-a', now: new Date(Date.now() + 600_000) });
    const b = await takeSnapshot(box.store, path, { name: 'cas-b', now: new Date(Date.now() + 600_000) });
    await expect(updateRefs(box.store, [{ ref: 'refs/cmv/snapshots/cas-a', id: b.id, old: b.id }], 'test')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(updateRefs(box.store, [{ ref: 'refs/cmv/snapshots/cas-a', id: b.id, old: ZERO_ID }], 'test')).rejects.toMatchObject({ code: 'CONFLICT' });
    // A transaction is all or nothing: one stale update keeps the other from happening.
    await expect(
      updateRefs(
        box.store,
        [
          { ref: 'refs/cmv/snapshots/cas-new', id: a.id, old: ZERO_ID },
          { ref: 'refs/cmv/snapshots/cas-b', id: a.id, old: a.id },
        ],
        'test',
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await readRef(box.store, 'refs/cmv/snapshots/cas-new')).toBeUndefined();
    expect(await readRef(box.store, 'refs/cmv/snapshots/cas-a')).toBe(a.id);
  });
});
