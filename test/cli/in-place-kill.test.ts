// kill -9 of `cmv trim --in-place` and `cmv restore` at random points (backup, trim, rename,
// restore): the log is always the original or the complete trimmed log, every backup is complete,
// the next run leaves no temp file in the Claude projects folder, and `cmv restore` then gives back
// the original byte for byte.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { buildIfStale, runCmv, startCmv } from '../helpers/built-cli.js';

const SAMPLE = join(SAMPLE_DIR, 'coding.jsonl');
const TRIALS = 10;
const roots: string[] = [];

interface Box {
  session: string;
  projectDir: string;
  cmvHome: string;
  env: NodeJS.ProcessEnv;
  root: string;
}

function box(): Box {
  const root = mkdtempSync(join(tmpdir(), 'cmv-kill-'));
  roots.push(root);
  const projectDir = join(root, 'claude', 'projects', '-tmp-cmv-samples-tally');
  mkdirSync(projectDir, { recursive: true });
  const session = join(projectDir, 'session.jsonl');
  copyFileSync(SAMPLE, session);
  const cmvHome = join(root, 'cmv-home');
  return { session, projectDir, cmvHome, root, env: { HOME: root, CLAUDE_CONFIG_DIR: join(root, 'claude'), CMV_HOME: cmvHome, NO_COLOR: '1' } };
}

function cmv(b: Box, ...args: string[]) {
  const run = runCmv(args, b.env, { cwd: b.root });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

function backupsOf(b: Box): Buffer[] {
  const dir = join(b.cmvHome, 'backups');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.jsonl'))
    .map((d) => readFileSync(join(d.parentPath, d.name)));
}

function temps(b: Box): string[] {
  return readdirSync(b.projectDir).filter((n) => n !== 'session.jsonl');
}

/** Runs cmv and kills it with SIGKILL after `ms`; resolves once it is gone. */
async function killAfter(b: Box, ms: number, ...args: string[]): Promise<void> {
  const { child, done } = startCmv(args, b.env, { cwd: b.root });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await done;
  clearTimeout(timer);
}

let original: Buffer;
let trimmed: Buffer;
let runMs: number;
let restoreMs: number;

beforeAll(async () => {
  await buildIfStale();
  original = readFileSync(SAMPLE);
  const b = box();
  const started = Date.now();
  cmv(b, 'trim', b.session, '--in-place');
  runMs = Date.now() - started;
  trimmed = readFileSync(b.session);
  expect(trimmed.length).toBeLessThan(original.length);
  const restoreStarted = Date.now();
  cmv(b, 'restore', b.session);
  restoreMs = Date.now() - restoreStarted;
}, 180_000);

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('kill -9 during in-place changes', () => {
  it(`loses no byte when trim --in-place is killed at random points (${TRIALS} trials)`, async () => {
    const seen = { original: 0, trimmed: 0, litter: 0 };
    for (let trial = 0; trial < TRIALS; trial++) {
      const b = box();
      await killAfter(b, Math.round(Math.random() * runMs * 1.1), 'trim', b.session, '--in-place');
      const log = readFileSync(b.session);
      expect(log.equals(original) || log.equals(trimmed), `trial ${trial}: the log is neither the original nor the trimmed log`).toBe(true);
      seen[log.equals(original) ? 'original' : 'trimmed']++;
      for (const backup of backupsOf(b)) expect(backup.equals(original), `trial ${trial}: a backup is incomplete`).toBe(true);
      if (temps(b).length) seen.litter++;
      // The next run cleans what the killed one left, and restore gives back the original.
      cmv(b, 'trim', b.session, '--in-place');
      expect(temps(b)).toEqual([]);
      expect(readFileSync(b.session).equals(trimmed)).toBe(true);
      cmv(b, 'restore', b.session);
      expect(readFileSync(b.session).equals(original), `trial ${trial}: restore did not give back the original`).toBe(true);
    }
    console.log(`trim --in-place killed ${TRIALS} times (run ${runMs} ms): log original ${seen.original}, trimmed ${seen.trimmed}; temps left ${seen.litter} times, all cleaned by the next run`);
  }, 300_000);

  it(`loses no byte when restore is killed at random points (${TRIALS} trials)`, async () => {
    const seen = { original: 0, trimmed: 0 };
    for (let trial = 0; trial < TRIALS; trial++) {
      const b = box();
      cmv(b, 'trim', b.session, '--in-place');
      await killAfter(b, Math.round(Math.random() * restoreMs * 1.1), 'restore', b.session);
      const log = readFileSync(b.session);
      expect(log.equals(original) || log.equals(trimmed), `trial ${trial}: the log is neither the original nor the trimmed log`).toBe(true);
      seen[log.equals(original) ? 'original' : 'trimmed']++;
      for (const backup of backupsOf(b)) expect(backup.equals(original)).toBe(true);
      cmv(b, 'restore', b.session);
      expect(readFileSync(b.session).equals(original), `trial ${trial}: restore did not give back the original`).toBe(true);
      expect(temps(b)).toEqual([]);
    }
    console.log(`restore killed ${TRIALS} times (run ${restoreMs} ms): log original ${seen.original}, trimmed ${seen.trimmed}`);
  }, 300_000);
});

describe('cmv restore and trim --in-place through the CLI', () => {
  it('lists the backups, restores the original, and changes nothing when run again', () => {
    const b = box();
    const trim = cmv(b, 'trim', b.session, '--in-place');
    // A session written seconds ago may be open in Claude Code: said on stderr.
    expect(trim.stderr).toMatch(/warning: the session was written \d+s ago/);
    const list = JSON.parse(cmv(b, 'restore', b.session, '--list', '--json').stdout) as { backups: { id: string; isDefault: boolean; problem?: string }[] };
    expect(list.backups).toHaveLength(1);
    expect(list.backups[0]).toMatchObject({ isDefault: true });
    expect(list.backups[0].problem).toBeUndefined();
    expect(cmv(b, 'restore', b.session, '--list').stdout).toContain(list.backups[0].id);
    cmv(b, 'restore', b.session);
    expect(readFileSync(b.session).equals(original)).toBe(true);
    const again = cmv(b, 'restore', b.session);
    expect(again.stdout).toContain('nothing to restore');
    expect(readFileSync(b.session).equals(original)).toBe(true);
  });

  it('refuses a device with exit 4 and a hint', () => {
    const b = box();
    const run = runCmv(['trim', '/dev/null', '--in-place'], b.env, { cwd: b.root });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('is a device, not a session log');
    expect(run.stderr).toContain('hint:');
  });
});
