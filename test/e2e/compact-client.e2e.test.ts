// `cmv compact` against the real Claude Code CLI: each session and its compacted copy are resumed
// offline with the same prompt. The compacted request must start from the summary cmv wrote (as
// Claude Code starts from its own compaction summaries), carry every text of zones B and A
// verbatim and in order, end with zone A exactly as the original request ends, pair every tool
// call, and be smaller. Slow (two resumes per file); skipped when the CLI is not installed.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { compactSession, SUMMARY_PREFIX } from '../../src/graph/compact.js';
import { findZones } from '../../src/graph/compact-zones.js';
import { clientsUnderTest, describeRun, resumeAndCapture, writeSessionLines, type ClaudeClient } from './claude-client.js';
import { clientModelFor } from '../../src/session/clients.js';
import { blocksOf, conversationTexts, diffTexts, isClientAddedText, messagesChars, messagesOf, normaliseTexts, summarizeRequest, toolPairFaults, type Message } from './request-texts.js';
import { HAS_CORPUS, SAMPLE_DIR, SAMPLE_DIR_332, corpusFile } from '../helpers/corpus.js';
import { withPreamble } from '../graph/preamble.js';

const RESUME_TIMEOUT_MS = 60_000;
const PROMPT = 'hi';
const clients = clientsUnderTest();
const scratch = mkdtempSync(join(tmpdir(), 'cmv-compact-client-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A message without what Claude Code adds per request: cache markers and `<system-reminder>`
 * blocks (skill lists, "TodoWrite hasn't been used recently"), which depend on the history sent.
 */
function comparable(message: Message): unknown {
  const blocks = blocksOf(message).filter((b) => !(b.type === 'text' && typeof b.text === 'string' && isClientAddedText(b.text)));
  return JSON.parse(JSON.stringify({ role: message.role, content: blocks }, (key, value) => (key === 'cache_control' ? undefined : value)));
}

async function compactAndResume(client: ClaudeClient, file: string): Promise<void> {
  const name = basename(file);
  const session = await openSession(file, { client: clientModelFor(client.version) });
  const zones = findZones(session, 5);
  const result = compactSession(session, { newSessionId: randomUUID() });
  expect(result.check.faults, `${name}: compactSession's own check`).toEqual([]);
  const compactedFile = join(scratch, `${result.output.sessionId}.jsonl`);
  writeSessionLines(compactedFile, result.lines);

  const original = await resumeAndCapture(file, { prompt: PROMPT, timeoutMs: RESUME_TIMEOUT_MS, client });
  const compacted = await resumeAndCapture(compactedFile, { prompt: PROMPT, timeoutMs: RESUME_TIMEOUT_MS, client });
  expect(original.request, describeRun(`${name} original`, original)).toBeDefined();
  expect(compacted.exitCode, describeRun(`${name} compacted`, compacted)).toBe(0);
  expect(compacted.request, describeRun(`${name} compacted`, compacted)).toBeDefined();

  // (a) the conversation starts from cmv's summary, as it starts from Claude Code's own.
  const texts = normaliseTexts(conversationTexts(compacted.request));
  expect(messagesOf(compacted.request)[0].role).toBe('user');
  expect(texts[0].text.startsWith(SUMMARY_PREFIX), `${name}: first text is not the summary\n${summarizeRequest(compacted.request)}`).toBe(true);
  expect(texts[0].text).toContain(result.summary.text);

  // (b) after it, every text of zones B and A, verbatim and in order, and nothing of zone C.
  const kept = new Set([...zones.b, ...zones.a].map((e) => e.uuid));
  const expected = normaliseTexts(
    sentTexts(session)
      .filter((t) => kept.has(t.uuid))
      .map((t) => ({ role: t.role, text: t.text })),
  );
  const mismatch = diffTexts(expected, texts.slice(1));
  expect(mismatch, `${name}: zone B/A texts differ from what the compacted log sent\n${summarizeRequest(compacted.request)}`).toEqual([]);
  // ... which is also how the original request ends.
  const originalTexts = normaliseTexts(conversationTexts(original.request));
  expect(originalTexts.slice(originalTexts.length - expected.length)).toEqual(expected);

  // (c) zone A exactly: the compacted request ends with the same messages as the original.
  const zoneAMessages = zones.messages.length - zones.messages.findIndex((m) => m.entries.includes(zones.a[0]));
  // role:"system" messages (2.1.332's client context) are the client's, not zone A's.
  const tail = (body: any) =>
    messagesOf(body)
      .filter((m) => m.role !== 'system')
      .slice(-zoneAMessages)
      .map(comparable);
  expect(tail(compacted.request), `${name}: zone A is not sent as the original sends it`).toEqual(tail(original.request));

  // (d) every tool call paired; (e) smaller.
  expect(toolPairFaults(compacted.request), `${name}: tool pairing\n${summarizeRequest(compacted.request)}`).toEqual([]);
  expect(messagesChars(compacted.request)).toBeLessThan(messagesChars(original.request));
}

const SAMPLES = [...['coding.jsonl', 'compacted.jsonl', 'resumed.jsonl'].map((f) => join(SAMPLE_DIR, f)), ...['tasks.jsonl', 'compacted.jsonl'].map((f) => join(SAMPLE_DIR_332, f))];
const CORPUS = ['entire-26dcd5518f-v2.1.29-image.jsonl', 'entire-7662d755ef-v2.1.14-microcompact.jsonl', 'entire-91b42542f2-v2.1.37-pr-link.jsonl'];

describe.skipIf(clients.length === 0)('compacted sessions resumed with the real Claude Code CLI', () => {
  for (const client of clients) describe(`Claude Code ${client.version}`, () => clientSuite(client));
});

function clientSuite(client: ClaudeClient): void {
  for (const file of SAMPLES) {
    it(`${file.includes('2.1.332') ? '2.1.332/' : ''}${basename(file)} resumes from the summary with zones B and A intact`, () => compactAndResume(client, file), 2 * RESUME_TIMEOUT_MS + 30_000);
  }
  it(
    'a session with a resume preamble in front (branch --with-resume) resumes from the resume block',
    async () => {
      const file = join(SAMPLE_DIR, 'resumed.jsonl');
      const { lines, text } = await withPreamble(file);
      const branched = join(scratch, `${randomUUID()}.jsonl`);
      writeSessionLines(branched, lines);
      const original = await resumeAndCapture(file, { prompt: PROMPT, timeoutMs: RESUME_TIMEOUT_MS, client });
      const withResume = await resumeAndCapture(branched, { prompt: PROMPT, timeoutMs: RESUME_TIMEOUT_MS, client });
      expect(withResume.exitCode, describeRun('branched', withResume)).toBe(0);
      const texts = normaliseTexts(conversationTexts(withResume.request));
      expect(texts[0].text.startsWith(SUMMARY_PREFIX)).toBe(true);
      expect(texts[0].text).toContain(text);
      expect(texts.slice(1)).toEqual(normaliseTexts(conversationTexts(original.request)));
    },
    2 * RESUME_TIMEOUT_MS + 30_000,
  );

  describe.skipIf(!HAS_CORPUS)('corpus', () => {
    for (const name of CORPUS) {
      it(`${name} resumes from the summary with zones B and A intact`, () => compactAndResume(client, corpusFile(name)), 2 * RESUME_TIMEOUT_MS + 30_000);
    }
  });
}
