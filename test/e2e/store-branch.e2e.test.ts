// A branch of a snapshot, resumed by the real Claude Code CLI: the request it sends must carry
// every user and assistant text of the snapshot, in order (trimmed or not); with the resume block
// in front (--with-resume), the request starts from that block. Slow (one resume per case);
// skipped when the CLI is not installed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { branchSnapshot } from '../../src/store/branch.js';
import { readLog } from '../../src/store/objects.js';
import { clientsUnderTest, resumeAndCapture, type ClaudeClient } from './claude-client.js';
import { clientModelFor } from '../../src/session/clients.js';
import { conversationTexts, diffTexts, normaliseTexts, type RequestText } from './request-texts.js';
import { SAMPLE_DIR, SAMPLE_DIR_332 } from '../helpers/corpus.js';
import { SUMMARY_PREFIX } from '../../src/graph/summary-records.js';
import { installSession, prefixCuts, sandbox, type Sandbox } from '../store/helpers.js';

const clients = clientsUnderTest();
const OLD = new Date(Date.now() + 10 * 60 * 1000);
let box: Sandbox;
let scratch: string;

beforeAll(async () => {
  box = await sandbox();
  scratch = mkdtempSync(join(tmpdir(), 'cmv-store-e2e-'));
});
afterAll(() => {
  box?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** What Claude Code sends of a snapshot's log on resume, by the conversation model. */
async function snapshotTexts(id: string, client: ClaudeClient): Promise<RequestText[]> {
  const file = join(scratch, `${id}.jsonl`);
  writeFileSync(file, await readLog(box.store.git, id));
  const session = await openSession(file, { findSubagents: false, client: clientModelFor(client.version) });
  return normaliseTexts(sentTexts(session).map(({ role, text }) => ({ role, text })));
}

async function resumedTexts(path: string, client: ClaudeClient): Promise<RequestText[]> {
  const capture = await resumeAndCapture(path, { timeoutMs: 60_000, client });
  expect(capture.ok, `claude exited ${capture.exitCode}: ${capture.stderr.slice(0, 500)}`).toBe(true);
  return normaliseTexts(conversationTexts(capture.request));
}

const cases: [string, string, 'half' | 'whole', boolean][] = [
  ['coding, first half, trimmed', join(SAMPLE_DIR, 'coding.jsonl'), 'half', true],
  ['coding, grown, trimmed', join(SAMPLE_DIR, 'coding.jsonl'), 'whole', true],
  ['coding, grown, not trimmed', join(SAMPLE_DIR, 'coding.jsonl'), 'whole', false],
  ['compacted, trimmed', join(SAMPLE_DIR, 'compacted.jsonl'), 'whole', true],
  // Written by 2.1.332: a persisted large output, a subagent with hand-back frames, the Task tools, /compact with a preserved segment.
  ['2.1.332 large output, trimmed', join(SAMPLE_DIR_332, 'large-read-image.jsonl'), 'whole', true],
  ['2.1.332 subagent, trimmed', join(SAMPLE_DIR_332, 'subagent.jsonl'), 'whole', true],
  ['2.1.332 tasks, trimmed', join(SAMPLE_DIR_332, 'tasks.jsonl'), 'whole', true],
  ['2.1.332 compacted, trimmed', join(SAMPLE_DIR_332, 'compacted.jsonl'), 'whole', true],
];

describe.skipIf(clients.length === 0)('a branch of a snapshot resumed by the real Claude Code CLI', () => {
  for (const client of clients) describe(`Claude Code ${client.version}`, () => clientSuite(client, clients.indexOf(client)));
});

function clientSuite(client: ClaudeClient, c: number): void {
  cases.forEach(([title, file, part, trim], i) => {
    it(`${title}: the request holds every text of the snapshot`, async () => {
      const data = readFileSync(file);
      const id = `5e5${c}${String(i).padStart(4, '0')}-0000-4000-8000-000000000000`;
      const path = installSession(box, '/tmp/cmv-samples/e2e', id, part === 'half' ? data.subarray(0, prefixCuts(data, 2)[0]) : data);
      const snapshot = await takeSnapshot(box.store, path, { now: OLD });
      const branch = await branchSnapshot(box.store, snapshot.name, { trim, env: box.env });
      const expected = await snapshotTexts(snapshot.id, client);
      expect(expected.length).toBeGreaterThan(1);
      const sent = await resumedTexts(branch.path, client);
      expect(diffTexts(expected, sent)).toEqual([]);
    }, 120_000);
  });

  it("forked at a message (--at), trimmed: the request holds the snapshot's texts up to that message and none after", async () => {
    const data = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
    const path = installSession(box, '/tmp/cmv-samples/e2e', `5e57${c}000-0000-4000-8000-000000000000`, data);
    const snapshot = await takeSnapshot(box.store, path, { now: OLD });
    // The assistant's last text of the first turn; the second turn ("commit it please") is cut off.
    const target = data
      .toString('utf8')
      .split('\n')
      .map((l) => (l ? JSON.parse(l) : {}))
      .find((r) => r.uuid?.startsWith('9728d7a3'));
    const branch = await branchSnapshot(box.store, snapshot.name, { at: '9728d7a3', env: box.env });
    expect(branch.trimmed).toBe(true);
    const full = await snapshotTexts(snapshot.id, client);
    const sent = await resumedTexts(branch.path, client);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.length).toBeLessThan(full.length);
    expect(diffTexts(full.slice(0, sent.length), sent)).toEqual([]);
    const targetText = normaliseTexts([{ role: 'assistant', text: target.message.content.find((b: { type: string }) => b.type === 'text').text }])[0].text;
    expect(sent.at(-1)).toEqual({ role: 'assistant', text: targetText });
  }, 120_000);

  /**
   * The compacted sample grown past 5 MB by a large line before its compaction: Claude Code then
   * reads such a log from its last compact boundary on, so a block put at the top would be lost.
   */
  const bigCompacted = () => {
    const padding = {
      type: 'file-history-snapshot',
      messageId: '00000000-0000-4000-8000-00000000pad0',
      snapshot: { messageId: '00000000-0000-4000-8000-00000000pad0', trackedFileBackups: {}, timestamp: '2026-01-01T00:00:00.000Z', padding: 'x'.repeat(6 * 1024 * 1024) },
      isSnapshotUpdate: false,
    };
    return Buffer.concat([Buffer.from(`${JSON.stringify(padding)}\n`), readFileSync(join(SAMPLE_DIR, 'compacted.jsonl'))]);
  };
  const withResume: [string, () => Buffer, boolean][] = [
    ['coding, trimmed', () => readFileSync(join(SAMPLE_DIR, 'coding.jsonl')), true],
    ['compacted, trimmed', () => readFileSync(join(SAMPLE_DIR, 'compacted.jsonl')), true],
    ['compacted, over 5 MB, not trimmed', bigCompacted, false],
    ['2.1.332 large output, trimmed', () => readFileSync(join(SAMPLE_DIR_332, 'large-read-image.jsonl')), true],
    ['2.1.332 subagent, trimmed', () => readFileSync(join(SAMPLE_DIR_332, 'subagent.jsonl')), true],
  ];
  withResume.forEach(([title, data, trim], i) => {
    it(`${title}, --with-resume: the request starts from the resume block, then every text of the snapshot`, async () => {
      const id = `5e6${c}${String(i).padStart(4, '0')}-0000-4000-8000-000000000000`;
      const path = installSession(box, '/tmp/cmv-samples/e2e', id, data());
      const snapshot = await takeSnapshot(box.store, path, { now: OLD });
      const branch = await branchSnapshot(box.store, snapshot.name, { trim, resume: {}, env: box.env });
      const expected = await snapshotTexts(snapshot.id, client);
      const sent = await resumedTexts(branch.path, client);
      expect(branch.resume?.text.length).toBeGreaterThan(0);
      expect(sent[0].role).toBe('user');
      expect(sent[0].text.startsWith(SUMMARY_PREFIX)).toBe(true);
      expect(sent[0].text).toContain(branch.resume!.text);
      expect(diffTexts(expected, sent.slice(1))).toEqual([]);
    }, 120_000);
  });
}
