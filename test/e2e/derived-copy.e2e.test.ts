// A copy cmv makes (trim, branch, compact) marks its responses as copies: fresh ids, zero usage and
// a `cmvDerived` field (src/session/derived.ts). Proved with both pinned clients (2.1.100's cli.js,
// 2.1.332's native binary): a log and the same log with every response so marked are resumed
// offline with the same prompt, and the two requests the client sent must carry the same messages.

import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientsUnderTest, describeRun, resumeAndCapture } from './claude-client.js';
import { deriveLine } from '../../src/session/derived.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';

const scratch = mkdtempSync(join(tmpdir(), 'cmv-derived-client-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function derivedCopy(path: string): { path: string; marked: number } {
  let marked = 0;
  const lines = readFileSync(path)
    .toString('utf8')
    .split('\n')
    .map((line) => {
      const out = deriveLine(Buffer.from(line), { by: 'trim', from: 'original', tag: '0123456789ab' }).toString('utf8');
      if (out !== line) marked++;
      return out;
    });
  const copy = join(scratch, `derived-${marked}-${Date.now()}.jsonl`);
  writeFileSync(copy, lines.join('\n'));
  return { path: copy, marked };
}

const clients = clientsUnderTest();

describe.skipIf(clients.length === 0)('a derived copy resumes exactly as its original (real Claude Code)', () => {
  for (const client of clients) {
    it(`Claude Code ${client.version}: sends the same messages for a log and for its copy with every response marked`, async () => {
      const original = join(SAMPLE_DIR, 'coding.jsonl');
      const copy = derivedCopy(original);
      expect(copy.marked).toBeGreaterThan(5);
      // One project folder for both, so nothing in the request differs but what the log says.
      const cwd = realpathSync(scratch);
      mkdirSync(join(cwd, 'project'), { recursive: true });
      const options = { client, cwd: join(cwd, 'project'), timeoutMs: 90_000 };
      const before = await resumeAndCapture(original, options);
      expect(before.ok, describeRun('original', before)).toBe(true);
      const after = await resumeAndCapture(copy.path, options);
      expect(after.ok, describeRun('derived copy', after)).toBe(true);
      expect(after.request.messages).toEqual(before.request.messages);
      expect(after.request.messages.length).toBeGreaterThan(10);
    }, 240_000);
  }
});
