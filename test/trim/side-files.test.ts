// A new session written by a trim carries what Claude Code keeps beside the log (subagent
// transcripts, persisted tool outputs) under its own id; the original's stay as they were.

import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trimToDestination } from '../../src/trim/apply.js';
import { SAMPLE_DIR_332 } from '../helpers/corpus.js';

const scratch = mkdtempSync(join(tmpdir(), 'cmv-side-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('side files of a trimmed new session', () => {
  for (const [name, sub] of [
    ['subagent', 'subagents'],
    ['large-read-image', 'tool-results'],
  ] as const) {
    it(`${name}: ${sub}/ is copied under the new session's id`, async () => {
      const id = `0000000${name.length}-aaaa-4bbb-8ccc-000000000000`;
      const project = join(scratch, name);
      cpSync(join(SAMPLE_DIR_332, `${name}.jsonl`), join(project, `${id}.jsonl`));
      cpSync(join(SAMPLE_DIR_332, name), join(project, id), { recursive: true });
      const applied = await trimToDestination(join(project, `${id}.jsonl`), {}, { kind: 'new-session' });
      expect(applied.sessionId).toBeDefined();
      const copied = join(project, applied.sessionId!, sub);
      expect(existsSync(copied)).toBe(true);
      expect(readdirSync(copied).sort()).toEqual(readdirSync(join(project, id, sub)).sort());
    });
  }
});
