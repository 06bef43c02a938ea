// The hook process as Claude Code runs it, in-process: stdin JSON in, always 0 out, the log
// trimmed in place (with a backup) only when it should be, problems written to hooks/hook.log.

import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookMain } from '../../src/hooks/hook-main.js';
import { readTrimRecords } from '../../src/hooks/trim-journal.js';
import { openStore } from '../../src/store/store.js';
import { readLog } from '../../src/store/objects.js';
import { refOf } from '../../src/store/names.js';

const SAMPLE = resolve(__dirname, '..', '..', 'sample-sessions', 'coding.jsonl');
let scratch: string;
let log: string;
const saved = { CMV_HOME: process.env.CMV_HOME, CMV_CONFIG: process.env.CMV_CONFIG };

function input(event: Record<string, unknown>): Readable {
  return Readable.from([Buffer.from(JSON.stringify(event))]);
}

function sink(): Writable & { text: string } {
  const out = new Writable({
    write(chunk, _enc, done) {
      out.text += String(chunk);
      done();
    },
  }) as Writable & { text: string };
  out.text = '';
  return out;
}

function hookLog(): string {
  try {
    return readFileSync(join(scratch, 'data', 'hooks', 'hook.log'), 'utf8');
  } catch {
    return '';
  }
}

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cmv-hook-main-'));
  log = join(scratch, 'session.jsonl');
  copyFileSync(SAMPLE, log);
  process.env.CMV_HOME = join(scratch, 'data');
  process.env.CMV_CONFIG = join(scratch, 'config.json');
  writeFileSync(process.env.CMV_CONFIG, JSON.stringify({ 'hook.snapshot': false, 'hook.growthBytes': 100 * 1024 }));
});

afterEach(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(scratch, { recursive: true, force: true });
});

describe('cmv hook run', () => {
  it('pre-compact trims the log in place, keeps a backup, journals it and tells Claude Code', async () => {
    const before = readFileSync(log);
    const out = sink();
    expect(await hookMain('pre-compact', { stdin: input({ transcript_path: log, session_id: 's1', hook_event_name: 'PreCompact', trigger: 'auto' }), stdout: out })).toBe(0);
    const [record] = await readTrimRecords();
    expect(record).toMatchObject({ by: 'pre-compact', path: log, bytesBefore: before.length, bytesAfter: statSync(log).size });
    expect(record.bytesAfter).toBeLessThan(record.bytesBefore);
    expect(readFileSync(record.backup!).equals(before)).toBe(true);
    expect(out.text).toMatch(/^cmv: trimmed the log .* backup kept, `cmv hook restore \w+` undoes it\n$/);
    expect(hookLog()).toBe('');
  });

  it('pre-compact with a snapshot stores the log as it was before the trim, and trims it', async () => {
    writeFileSync(process.env.CMV_CONFIG!, JSON.stringify({ 'hook.snapshot': true }));
    const before = readFileSync(log);
    const out = sink();
    await hookMain('pre-compact', { stdin: input({ transcript_path: log, session_id: 's1', hook_event_name: 'PreCompact', trigger: 'auto' }), stdout: out });
    const [record] = await readTrimRecords();
    expect(record.snapshot).toMatch(/\S/);
    expect(statSync(log).size).toBeLessThan(before.length);
    // The trim ran while the snapshot was still being stored: the snapshot holds the untrimmed bytes.
    const store = await openStore();
    const id = (await store.git.run(['rev-parse', refOf('snapshot', record.snapshot!)], 'rev-parse')).trim();
    expect((await readLog(store.git, id)).equals(before)).toBe(true);
    expect(out.text).toContain(`; snapshot ${record.snapshot}`);
    expect(hookLog()).toBe('');
  });

  it('size-guard leaves a log alone until it grew past hook.growthBytes, then trims once', async () => {
    writeFileSync(process.env.CMV_CONFIG!, JSON.stringify({ 'hook.growthBytes': 200 * 1024 }));
    const event = { transcript_path: log, hook_event_name: 'PostToolUse', tool_name: 'Bash' };
    const size = statSync(log).size; // ~120 KB
    await hookMain('size-guard', { stdin: input(event), stdout: sink() });
    expect(statSync(log).size).toBe(size);
    expect(await readTrimRecords()).toEqual([]);

    writeFileSync(process.env.CMV_CONFIG!, JSON.stringify({ 'hook.growthBytes': 100 * 1024 }));
    await hookMain('size-guard', { stdin: input(event), stdout: sink() });
    const trimmed = statSync(log).size;
    expect(trimmed).toBeLessThan(size);
    // The next tool call finds no new growth: nothing happens, not even a re-trim.
    await hookMain('size-guard', { stdin: input(event), stdout: sink() });
    expect(statSync(log).size).toBe(trimmed);
    expect((await readTrimRecords()).map((r) => r.by)).toEqual(['size-guard']);
  });

  it('exits 0 on input it cannot use, and logs why', async () => {
    expect(await hookMain('pre-compact', { stdin: Readable.from([Buffer.from('not json')]), stdout: sink() })).toBe(0);
    expect(await hookMain('pre-compact', { stdin: input({ transcript_path: 'relative.jsonl' }), stdout: sink() })).toBe(0);
    expect(await hookMain('pre-compact', { stdin: input({ transcript_path: join(scratch, 'gone.jsonl') }), stdout: sink() })).toBe(0);
    expect(await hookMain('rm-rf', { stdin: input({}), stdout: sink() })).toBe(0);
    const text = hookLog();
    expect(text).toContain('hook input is not JSON');
    expect(text).toContain('no absolute transcript_path');
    expect(text).toContain('gone.jsonl');
    expect(text).toContain('unknown hook "rm-rf"');
  });

  it('gives up at its deadline, logs it and still exits 0', async () => {
    const before = readFileSync(log);
    const started = Date.now();
    expect(await hookMain('pre-compact', { stdin: input({ transcript_path: log }), stdout: sink(), timeoutMs: 1 })).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(hookLog()).toContain('gave up after');
    // The trim carries on in the background here (a real hook process exits at once); let it end.
    await new Promise((r) => setTimeout(r, 1_500));
    const after = readFileSync(log);
    expect(after.equals(before) || after.length < before.length).toBe(true);
  });

  it('uses the defaults, and says so, when the config file is broken', async () => {
    writeFileSync(process.env.CMV_CONFIG!, '{ broken');
    expect(await hookMain('pre-compact', { stdin: input({ transcript_path: log }), stdout: sink() })).toBe(0);
    expect(hookLog()).toContain('config unreadable, defaults used');
    expect((await readTrimRecords()).length).toBe(1);
  });
});
