// replaceLive: the new content replaces the log only if the log was appended to (never rewritten or
// cut) since it was read; appended lines are carried after it, a torn last line as it is.

import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
