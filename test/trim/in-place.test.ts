// In-place trims and restores without a live writer: what they refuse (devices, FIFOs, files that
// are not logs), what they keep (mode, mtime, the line the client chains to), the backups (complete,
// unique, listed) and restore (the first backup of the run, lines written since kept, never toggles).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, chmodSync, lstatSync, symlinkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trimToDestination } from '../../src/trim/apply.js';
import { checkComplete, listBackups, placeBackup, readForBackup, type BackupRecord } from '../../src/trim/backups.js';
import { restoreLog } from '../../src/trim/restore.js';
import { fingerprint, openLiveLog } from '../../src/session/live-replace.js';
import { trimInPlace } from '../../src/trim/in-place.js';
import { refusal } from '../helpers/refusal.js';
import { SessionBuilder, commandOutput, readOutput, removeWrittenSessions } from './session-builder.js';

const saved = { CMV_HOME: process.env.CMV_HOME };
let scratch: string;

function build(): { text: string; tip: string; sessionId: string } {
  const b = new SessionBuilder();
  b.user('The build fails, can you look?');
  b.toolCall('Bash', { command: 'npm run build' }, commandOutput(400), { say: 'Running the build.' });
  b.toolCall('Read', { file_path: '/tmp/cmv-rules/app/src/big.ts' }, readOutput(300));
  b.assistant([{ type: 'text', text: 'The build fails on line 12 of big.ts.' }]);
  b.assistant([{ type: 'thinking', thinking: 'Now I should patch the file. '.repeat(40), signature: 'sig'.repeat(30) }]);
  return { text: b.text(), tip: b.tip!, sessionId: b.sessionId };
}

function line(uuid: string, parent: string, sessionId: string, text = `more ${uuid}`): string {
  return `${JSON.stringify({ parentUuid: parent, isSidechain: false, type: 'user', uuid, sessionId, timestamp: new Date().toISOString(), cwd: '/tmp/cmv-rules/app', message: { role: 'user', content: text } })}\n`;
}

function logAt(text: string, name = 'session.jsonl'): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** An in-place trim held where it would replace the log: a thenable replaceAfter tells when the trim waits on it. */
async function trimmedAtGate(path: string): Promise<{ trimming: ReturnType<typeof trimInPlace>; release: () => void }> {
  let release!: () => void;
  let waiting!: () => void;
  const atGate = new Promise<void>((resolve) => (waiting = resolve));
  const replaceAfter = { then: (resolve: () => void) => (waiting(), (release = resolve)) } as unknown as Promise<void>;
  const trimming = trimInPlace(path, { options: {}, by: 'test', lockWaitMs: 0, replaceAfter });
  await atGate;
  return { trimming, release };
}

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cmv-in-place-'));
  process.env.CMV_HOME = join(scratch, 'data');
});

afterEach(() => {
  if (saved.CMV_HOME === undefined) delete process.env.CMV_HOME;
  else process.env.CMV_HOME = saved.CMV_HOME;
  rmSync(scratch, { recursive: true, force: true });
});

afterAll(() => removeWrittenSessions());

describe('trim --in-place refuses what is not a log file', () => {
  it('refuses a device and a FIFO with BAD_INPUT before reading, and leaves them as they are', async () => {
    const device = await refusal(trimToDestination('/dev/null', {}, { kind: 'in-place' }));
    expect(device.code).toBe('BAD_INPUT');
    expect(device.message).toContain('is a device');
    expect(device.hint).toBeTruthy();
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    const fifo = join(scratch, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const error = await refusal(trimToDestination(fifo, {}, { kind: 'in-place' }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toContain('FIFO');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('refuses a file that is not a Claude Code log, leaving its bytes and mode', async () => {
    for (const text of ['just some notes\nand more\n', '[1,2,3]\n{"a":1}\n', '']) {
      const path = logAt(text, 'notes.jsonl');
      chmodSync(path, 0o644);
      const error = await refusal(trimToDestination(path, {}, { kind: 'in-place' }));
      expect(error.code).toBe('BAD_INPUT');
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(statSync(path).mode & 0o777).toBe(0o644);
    }
  });
});

describe('trim --in-place', () => {
  it("keeps the log's mode and mtime, and warns only about a log written moments ago", async () => {
    const { text } = build();
    const path = logAt(text);
    chmodSync(path, 0o644);
    const old = new Date('2026-01-02T03:04:05Z');
    utimesSync(path, old, old);
    const applied = await trimToDestination(path, {}, { kind: 'in-place' });
    expect(applied.warnings).toEqual([]);
    expect(applied.result.input.path).toBe(path);
    const info = statSync(path);
    expect(info.size).toBeLessThan(text.length);
    expect(info.mode & 0o777).toBe(0o644);
    expect(info.mtimeMs).toBe(old.getTime());

    const fresh = logAt(text, 'fresh.jsonl');
    const warned = await trimToDestination(fresh, {}, { kind: 'in-place' });
    expect(warned.warnings?.[0]).toMatch(/written \d+s ago and may be open in Claude Code/);
  });

  it('keeps the last line a running client chains to, even one the trim drops', async () => {
    const { text, tip, sessionId } = build();
    const path = logAt(text);
    await trimToDestination(path, {}, { kind: 'in-place' });
    // The client, still running, appends its next line to the last one it wrote.
    appendFileSync(path, line('next-1', tip, sessionId));
    const uuids = new Set(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { uuid?: string }).uuid),
    );
    expect(uuids.has(tip)).toBe(true);
  });

  it('replaces the log only once replaceAfter settles (the hook trims while its snapshot reads the log), backup and trim done before', async () => {
    const { text } = build();
    const path = logAt(text);
    const { trimming, release } = await trimmedAtGate(path);
    // Trimmed, not replaced; the backup is placed just before the replace.
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect((await listBackups(path)).length).toBe(0);
    release();
    const outcome = await trimming;
    expect(outcome.status).toBe('trimmed');
    expect(statSync(path).size).toBeLessThan(Buffer.byteLength(text));
    expect((await listBackups(path)).length).toBe(1);
  });

  it('trims the file a symlink points to and leaves the symlink a symlink', async () => {
    const { text } = build();
    const path = logAt(text);
    const link = join(scratch, 'link.jsonl');
    symlinkSync(path, link);
    await trimToDestination(link, {}, { kind: 'in-place' });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(path).size).toBeLessThan(text.length);
    await restoreLog(link);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it("removes temp files a killed cmv left beside the log, never a live process's", async () => {
    const { text } = build();
    const path = logAt(text);
    const dead = 2 ** 22 + 12345; // above Linux's default pid_max
    const stale = [`.session.jsonl.${dead}.0123abcd.tmp`, `.session.jsonl.${dead}.0123abcd.tmp.pass1`];
    const mine = `.session.jsonl.${process.pid}.89abcdef.tmp`;
    for (const name of [...stale, mine]) writeFileSync(join(scratch, name), '');
    await trimToDestination(path, {}, { kind: 'in-place' });
    const left = readdirSync(scratch);
    for (const name of stale) expect(left).not.toContain(name);
    expect(left).toContain(mine);
  });
});

describe('backups and restore', () => {
  it('hashes the prefixes asked for as it reads (SHA-256 of the first N bytes), ignoring offsets past the backup', async () => {
    const { text } = build();
    const path = logAt(text);
    const live = await openLiveLog(path);
    try {
      const bytes = Buffer.from(text);
      const cut = bytes.indexOf(10) + 1;
      const { prefixDigests } = await readForBackup(live, 'test', new Date(), [cut, bytes.length, bytes.length + 10, 0]);
      const sha = (n: number) => createHash('sha256').update(bytes.subarray(0, n)).digest('hex');
      expect([...prefixDigests.entries()]).toEqual([
        [cut, sha(cut)],
        [bytes.length, sha(bytes.length)],
      ]);
    } finally {
      await live.handle.close();
    }
  });

  it('takes two backups in the same millisecond under different names, each complete', async () => {
    const { text } = build();
    const path = logAt(text);
    const live = await openLiveLog(path);
    try {
      const now = new Date('2026-11-26T00:00:00.000Z');
      const [a, b] = await Promise.all([readForBackup(live, 'test', now), readForBackup(live, 'test', now)]);
      await Promise.all([placeBackup(live, a), placeBackup(live, b)]);
      expect(a.path).not.toBe(b.path);
      expect(readFileSync(a.path, 'utf8')).toBe(text);
      expect(readFileSync(b.path, 'utf8')).toBe(text);
    } finally {
      await live.handle.close();
    }
  });

  it('backs the log up as its own old file, hard-linked just before the replace: nothing copied, restored from it', async () => {
    const { text } = build();
    const path = logAt(text);
    const original = statSync(path);
    const applied = await trimToDestination(path, {}, { kind: 'in-place' });
    expect(statSync(applied.backup!).ino).toBe(original.ino);
    expect(statSync(path).ino).not.toBe(original.ino);
    expect(readFileSync(applied.backup!, 'utf8')).toBe(text);
    const record = JSON.parse(readFileSync(applied.backup!.replace(/\.jsonl$/, '.json'), 'utf8')) as BackupRecord;
    expect(record.file).toMatchObject({ bytes: Buffer.byteLength(text), linked: true });
    expect((await listBackups(path))[0].problem).toBeUndefined();
    await restoreLog(path);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('keeps a line appended during the trim once: carried into the result, in the linked backup past its record, and once after a restore', async () => {
    const { text, tip, sessionId } = build();
    const path = logAt(text);
    const appended = line('appended-1', tip, sessionId, 'written while the trim ran');
    const { trimming, release } = await trimmedAtGate(path);
    appendFileSync(path, appended);
    release();
    const outcome = await trimming;
    if (outcome.status !== 'trimmed') throw new Error(outcome.status);
    const count = (s: string) => s.split('"uuid":"appended-1"').length - 1;
    expect(count(readFileSync(path, 'utf8'))).toBe(1);
    // Last, relinked past the line the trim dropped.
    expect(JSON.parse(readFileSync(path, 'utf8').trimEnd().split('\n').at(-1)!).uuid).toBe('appended-1');
    expect(outcome.record.file!.bytes).toBe(Buffer.byteLength(text));
    expect(readFileSync(outcome.backup, 'utf8')).toBe(text + appended);
    expect((await listBackups(path))[0].problem).toBeUndefined();
    await restoreLog(path);
    expect(readFileSync(path, 'utf8')).toBe(text + appended);
  });

  const shm = '/dev/shm';
  const otherFileSystem = (() => {
    try {
      return statSync(shm).isDirectory() && statSync(shm).dev !== statSync(tmpdir()).dev;
    } catch {
      return false;
    }
  })();
  it.skipIf(!otherFileSystem)('copies the backup where no link can be made (cmv data on another file system), and restores from the copy', async () => {
    const { text } = build();
    const path = logAt(text);
    const data = mkdtempSync(join(shm, 'cmv-in-place-data-'));
    process.env.CMV_HOME = data;
    try {
      const original = statSync(path);
      const applied = await trimToDestination(path, {}, { kind: 'in-place' });
      expect(statSync(applied.backup!).ino).not.toBe(original.ino);
      expect(readFileSync(applied.backup!, 'utf8')).toBe(text);
      const record = JSON.parse(readFileSync(applied.backup!.replace(/\.jsonl$/, '.json'), 'utf8')) as BackupRecord;
      expect(record.file!.linked).toBeUndefined();
      await restoreLog(path);
      expect(readFileSync(path, 'utf8')).toBe(text);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('takes a linked backup longer than its record as complete (lines appended before the replace), a copy only at its exact size', async () => {
    const { text } = build();
    const path = logAt(text + 'x'.repeat(10) + '\n');
    const bytes = Buffer.byteLength(text);
    const live = await openLiveLog(path);
    const print = await fingerprint(live.handle, bytes).finally(() => live.handle.close());
    const record = (linked?: boolean): BackupRecord => ({
      format: 1,
      id: 'x',
      kind: 'trim',
      source: path,
      at: '',
      by: 'test',
      mode: 0o600,
      mtimeMs: 0,
      file: { bytes, sha256: 'unused', fingerprint: print, ...(linked ? { linked } : {}) },
    });
    expect(await checkComplete(path, record(true))).toBeUndefined();
    expect(await checkComplete(path, record())).toMatch(/bytes of/);
    truncateSync(path, bytes - 1);
    expect(await checkComplete(path, record(true))).toMatch(/bytes of/);
  });

  it('restores the original after two trims, keeping every line written between and after, and never toggles', async () => {
    const { text, tip, sessionId } = build();
    const path = logAt(text);
    chmodSync(path, 0o644);
    await trimToDestination(path, {}, { kind: 'in-place' });
    const between = line('between-1', tip, sessionId, 'written after the first trim ' + 'x'.repeat(4000));
    appendFileSync(path, between);
    await trimToDestination(path, {}, { kind: 'in-place' });
    const after = line('after-1', 'between-1', sessionId);
    appendFileSync(path, after);

    const listed = await listBackups(path);
    expect(listed.filter((b) => b.kind === 'trim')).toHaveLength(2);
    expect(listed.filter((b) => b.isDefault)).toHaveLength(1);
    expect(listed.at(-1)!.isDefault).toBe(true); // the oldest: taken before the first trim

    const old = new Date('2026-01-02T03:04:05Z');
    utimesSync(path, old, old);
    const first = await restoreLog(path);
    expect(first.status).toBe('restored');
    expect(statSync(path).mtimeMs).toBe(old.getTime());
    expect(readFileSync(path, 'utf8')).toBe(text + between + after);
    expect(statSync(path).mode & 0o777).toBe(0o644);

    const again = await restoreLog(path);
    expect(again.status).toBe('unchanged');
    expect(readFileSync(path, 'utf8')).toBe(text + between + after);

    // A trim after the restore starts a new run whose first backup holds the original too.
    await trimToDestination(path, {}, { kind: 'in-place' });
    expect(readFileSync(path, 'utf8')).not.toBe(text + between + after);
    await restoreLog(path);
    expect(readFileSync(path, 'utf8')).toBe(text + between + after);
  });

  it('serialises concurrent in-place trims of one log, and restore still gives back the original', async () => {
    const { text } = build();
    const path = logAt(text);
    const results = await Promise.all([0, 1, 2].map(() => trimToDestination(path, {}, { kind: 'in-place' })));
    expect(results.filter((r) => !r.unchanged)).toHaveLength(1);
    expect(statSync(path).size).toBeLessThan(text.length);
    await restoreLog(path);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('restores a chosen backup of the run with --from', async () => {
    const { text, tip, sessionId } = build();
    const path = logAt(text);
    await trimToDestination(path, {}, { kind: 'in-place' });
    const trimmedOnce = readFileSync(path, 'utf8');
    const between = line('between-1', tip, sessionId);
    appendFileSync(path, between);
    const second = await trimToDestination(path, {}, { kind: 'in-place' });
    const id = second.backup!.replace(/^.*\//, '').replace(/\.jsonl$/, '');
    const outcome = await restoreLog(path, { from: id.slice(0, 20) });
    expect(outcome.status).toBe('restored');
    expect(readFileSync(path, 'utf8')).toBe(trimmedOnce + between);
  });

  it('refuses a backup that is not complete, and leaves the log as it is', async () => {
    const { text } = build();
    const path = logAt(text);
    const applied = await trimToDestination(path, {}, { kind: 'in-place' });
    const trimmed = readFileSync(path);
    truncateSync(applied.backup!, text.length - 10);
    const error = await refusal(restoreLog(path));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toContain('not a complete log');
    expect(readFileSync(path).equals(trimmed)).toBe(true);
    expect((await listBackups(path))[0].problem).toMatch(/bytes of/);
  });

  it('says there is nothing to restore for a log never trimmed in place', async () => {
    const { text } = build();
    const path = logAt(text);
    const error = await refusal(restoreLog(path));
    expect(error.code).toBe('NOT_FOUND');
  });
});
