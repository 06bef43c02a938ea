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

describe('side files of a branch', () => {
  it('a branch of a snapshot whose session is on this machine gets its subagents/ under the new id', async () => {
    const { sandbox, installSession } = await import('../store/helpers.js');
    const { takeSnapshot } = await import('../../src/store/snapshot.js');
    const { branchSnapshot } = await import('../../src/store/branch.js');
    const { readFileSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    const box = await sandbox();
    try {
      const id = '5ide0000-0000-4000-8000-000000000000';
      const path = installSession(box, '/tmp/cmv-samples/webhook-relay', id, readFileSync(join(SAMPLE_DIR_332, 'subagent.jsonl')));
      cpSync(join(SAMPLE_DIR_332, 'subagent'), join(dirname(path), id), { recursive: true });
      const snapshot = await takeSnapshot(box.store, path, { now: new Date(Date.now() + 600_000) });
      const branch = await branchSnapshot(box.store, snapshot.name, { env: box.env });
      const copied = join(dirname(branch.path), branch.path.replace(/^.*\/|\.jsonl$/g, ''), 'subagents');
      expect(readdirSync(copied).sort()).toEqual(readdirSync(join(SAMPLE_DIR_332, 'subagent', 'subagents')).sort());
    } finally {
      box.cleanup();
    }
  });
});
