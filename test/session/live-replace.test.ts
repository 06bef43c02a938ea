// replaceLive: the new content replaces the log only if the log was appended to (never rewritten or
// cut) since it was read; appended lines are carried after it, a torn last line as it is.

import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLiveLog, readAt, replaceLive } from '../../src/session/live-replace.js';
import { CmvError } from '../../src/errors.js';

let dir: string;
const ORIGINAL = '{"type":"user","n":1}\n{"type":"user","n":2}\n';
const NEW = '{"type":"user","n":"new"}\n';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cmv-live-replace-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function setUp(): Promise<{ path: string; temp: string; live: Awaited<ReturnType<typeof openLiveLog>>; tail: Buffer }> {
  const path = join(dir, 'log.jsonl');
  writeFileSync(path, ORIGINAL);
  const temp = join(dir, '.log.jsonl.1.00000000.tmp');
  writeFileSync(temp, NEW);
  const live = await openLiveLog(path);
  return { path, temp, live, tail: await readAt(live.handle, 0, ORIGINAL.length) };
}

describe('replaceLive', () => {
  it('carries lines appended after the content it accounts for, and a torn last line as it is', async () => {
    const { path, temp, live, tail } = await setUp();
    appendFileSync(path, '{"type":"user","n":3}\n{"type":"us');
    const done = await replaceLive(live, temp, ORIGINAL.length, { expectTail: tail });
    await live.handle.close();
    expect(readFileSync(path, 'utf8')).toBe(`${NEW}{"type":"user","n":3}\n{"type":"us`);
    expect(done.lines).toBe(1);
    expect(existsSync(temp)).toBe(false);
  });

  it('runs the work the caller deferred once, after the rename, and carries a line that reaches the old file meanwhile', async () => {
    const { path, temp, live, tail } = await setUp();
    // A writer that opened the log before the rename, and writes to the old file after it.
    const writer = await open(path, 'a');
    const seen: string[] = [];
    let writing: Promise<unknown> | undefined;
    const done = await replaceLive(live, temp, ORIGINAL.length, {
      expectTail: tail,
      whileSettling: () => {
        seen.push(readFileSync(path, 'utf8'));
        writing = writer.appendFile('{"type":"user","n":"late"}\n');
      },
    });
    await writing;
    await writer.close();
    await live.handle.close();
    expect(seen).toEqual([NEW]);
    expect(readFileSync(path, 'utf8')).toBe(`${NEW}{"type":"user","n":"late"}\n`);
    expect(done.late).toBeGreaterThan(0);
  });

  it('never runs the deferred work when the log is left as it was', async () => {
    const { path, temp, live, tail } = await setUp();
    writeFileSync(path, ORIGINAL.replace('1', '9'));
    let ran = 0;
    const error = await replaceLive(live, temp, ORIGINAL.length, { expectTail: tail, whileSettling: () => void ran++ }).catch((e: unknown) => e);
    await live.handle.close();
    expect(error).toBeInstanceOf(CmvError);
    expect(ran).toBe(0);
  });

  it('leaves a log that was rewritten or cut meanwhile, and removes its temp file', async () => {
    for (const change of [(path: string) => writeFileSync(path, ORIGINAL.replace('1', '9')), (path: string) => truncateSync(path, 5)]) {
      const { path, temp, live, tail } = await setUp();
      change(path);
      const changed = readFileSync(path, 'utf8');
      const error = await replaceLive(live, temp, ORIGINAL.length, { expectTail: tail }).catch((e: unknown) => e);
      await live.handle.close();
      expect(error).toBeInstanceOf(CmvError);
      expect((error as CmvError).code).toBe('CONFLICT');
      expect(readFileSync(path, 'utf8')).toBe(changed);
      expect(readdirSync(dir)).toEqual(['log.jsonl']);
    }
  });
});
