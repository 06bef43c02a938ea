// The trim against the real Claude Code CLI: each session and its trimmed copy are resumed
// offline with the same prompt, and the two requests the CLI sent are compared. The trimmed one
// must carry every conversation text, pair every tool call, hold no thinking, and be smaller.
// Slow (two resumes per file, run one after another); skipped when the CLI is not installed.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { countTokens } from '../../src/tokens/counter.js';
import { clientsUnderTest, describeRun, resumeAndCapture, writeSessionLines, type ClaudeClient } from './claude-client.js';
import { blocksOf, conversationTexts, messagesChars, messagesOf, normaliseTexts, summarizeRequest, toolPairFaults } from './request-texts.js';
import { mean, median, messageTokens, missingTexts, pct, reductionOf, table, thinkingBlocks } from './request-measures.js';
import { HAS_CORPUS, HAS_RECENT_CORPUS, corpusFiles, recentCorpusFiles, sampleFiles, isSubagentFile } from '../helpers/corpus.js';
import { replayedDisk } from '../helpers/replayed-files.js';

const RESUME_TIMEOUT_MS = 60_000;
const PROMPT = 'hi';

/**
 * `corpus, files replayed`: the same logs trimmed as on the machine where they ran, right after
 * the session: the trim asks the files the log's own Edit/Write records rebuild (their projects
 * are not on this machine), so applied Edit/Write inputs may be stubbed.
 */
type Group = 'sample' | 'corpus' | 'corpus, files replayed' | 'corpus recent';

interface Measured {
  client: string;
  group: Group;
  file: string;
  originalChars: number;
  trimmedChars: number;
  originalTokens: number;
  trimmedTokens: number;
  /** trimSession's own estimate of the token reduction. */
  reported: number;
  /** Share of the original request's message tokens in tool_use and tool_result blocks. */
  toolShare: number;
}

/** A session is tool-heavy when tool calls and their results carry at least this share of what it sends. */
const TOOL_HEAVY_SHARE = 0.5;
/** A long session: one that sends at least this many message tokens on resume (a trim matters there). */
const LONG_SESSION_TOKENS = 20_000;

const measured: Measured[] = [];
const clients = clientsUnderTest();
const scratch = mkdtempSync(join(tmpdir(), 'cmv-trim-client-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function toolShare(body: any, total: number): number {
  let tools = 0;
  for (const message of messagesOf(body)) for (const block of blocksOf(message)) if (block.type === 'tool_use' || block.type === 'tool_result') tools += countTokens(JSON.stringify(block));
  return total > 0 ? tools / total : 0;
}

/** The original's request and its figures, measured once for every group it is compared in. */
interface Original {
  capture: Awaited<ReturnType<typeof resumeAndCapture>>;
  chars: number;
  tokens: number;
  toolShare: number;
}

async function compareResumes(client: ClaudeClient, file: string, groups: Group[]): Promise<void> {
  const capture = await resumeAndCapture(file, { prompt: PROMPT, timeoutMs: RESUME_TIMEOUT_MS, client });
  const tokens = capture.request ? messageTokens(capture.request) : 0;
  const original: Original = capture.request
    ? { capture, chars: messagesChars(capture.request), tokens, toolShare: toolShare(capture.request, tokens) }
    : { capture, chars: 0, tokens: 0, toolShare: 0 };
  for (const group of groups) await compareTrimmed(client, file, group, original);
}

async function compareTrimmed(client: ClaudeClient, file: string, group: Group, { capture: original, ...figures }: Original): Promise<void> {
  const name = basename(file);
  const newSessionId = randomUUID();
  const replayed = group === 'corpus, files replayed' ? replayedDisk(file) : undefined;
  const target = replayed ? { newSessionId, fileHolds: replayed.holds, fileLines: replayed.lines } : { newSessionId };
  const result = await trimSession(file, {}, target);
  expect(result.verify.ok, `${name}: trimSession's own verification failed`).toBe(true);
  const trimmedFile = join(scratch, `${newSessionId}.jsonl`);
  writeSessionLines(trimmedFile, result.lines);

  const trimmed = await resumeAndCapture(trimmedFile, { prompt: PROMPT, timeoutMs: RESUME_TIMEOUT_MS, client });
  if (!original.request) {
    // Claude Code refuses a log without a conversation; the trimmed log may not gain one.
    expect(trimmed.request, `${describeRun(`${name} trimmed`, trimmed)}; the original sent nothing`).toBeUndefined();
    return;
  }
  expect(trimmed.exitCode, describeRun(`${name} trimmed`, trimmed)).toBe(0);
  expect(trimmed.request, describeRun(`${name} trimmed`, trimmed)).toBeDefined();

  // (a) every user and assistant text of the original request, verbatim and in order.
  const originalTexts = normaliseTexts(conversationTexts(original.request));
  const trimmedTexts = normaliseTexts(conversationTexts(trimmed.request));
  const missing = missingTexts(originalTexts, trimmedTexts);
  expect(missing, `${name}: texts of the original request missing from the trimmed one\n${missing}\n${summarizeRequest(trimmed.request)}`).toBe('');

  // (b) every tool_use answered, every tool_result asked for.
  const pairFaults = toolPairFaults(trimmed.request);
  expect(pairFaults, `${name}: ${pairFaults.length} tool pairing fault(s)\n${summarizeRequest(trimmed.request)}`).toEqual([]);

  // (d) no thinking blocks.
  expect(thinkingBlocks(trimmed.request), `${name}: thinking blocks in the trimmed request`).toBe(0);

  const row: Measured = {
    client: client.version,
    group,
    file: name,
    originalChars: figures.chars,
    trimmedChars: messagesChars(trimmed.request),
    originalTokens: figures.tokens,
    trimmedTokens: messageTokens(trimmed.request),
    reported: result.reduction.tokens,
    toolShare: figures.toolShare,
  };
  measured.push(row);

  // (c) smaller whenever the trim says it removed tokens.
  if (result.reduction.tokens > 0) {
    expect(row.trimmedChars, `${name}: trim reported -${(result.reduction.tokens * 100).toFixed(1)}% tokens, but the request did not shrink`).toBeLessThan(row.originalChars);
  } else {
    expect(row.trimmedChars, `${name}: the trimmed request grew`).toBeLessThanOrEqual(row.originalChars);
  }
}

// The sent measure counts the JSON of `messages` as text, base64 images and thinking signatures
// included; the trim's own estimate counts images by their size in pixels and skips signatures.

function summaryTable(rows: Measured[]): string {
  const header = ['client', 'file', 'group', 'tools', 'orig chars', 'trim chars', 'orig tok', 'trim tok', 'sent -tok', 'reported -tok'];
  const body = rows.map((r) => [
    r.client,
    r.file,
    r.group,
    pct(r.toolShare),
    String(r.originalChars),
    String(r.trimmedChars),
    String(r.originalTokens),
    String(r.trimmedTokens),
    pct(reductionOf(r)),
    pct(r.reported),
  ]);
  const lines = table(header, body);
  for (const client of [...new Set(rows.map((r) => r.client))])
    for (const group of ['sample', 'corpus', 'corpus, files replayed', 'corpus recent'] as const) {
      for (const subset of ['all', 'tool-heavy', 'long and tool-heavy'] as const) {
        const inSubset = (r: Measured) => subset === 'all' || (r.toolShare >= TOOL_HEAVY_SHARE && (subset === 'tool-heavy' || r.originalTokens >= LONG_SESSION_TOKENS));
        const inGroup = rows.filter((r) => r.client === client && r.group === group && inSubset(r));
        if (inGroup.length === 0) continue;
        const label = subset === 'all' ? '' : `, ${subset} (tools >= ${pct(TOOL_HEAVY_SHARE)} of sent tokens${subset === 'tool-heavy' ? '' : `, >= ${LONG_SESSION_TOKENS} tokens sent`})`;
        const sent = inGroup.map(reductionOf);
        const reported = inGroup.map((r) => r.reported);
        lines.push(
          `${client} ${group}${label}: ${inGroup.length} files, sent message tokens reduced by mean ${pct(mean(sent))}, median ${pct(median(sent))}` +
            ` (trim's own estimate: mean ${pct(mean(reported))}, median ${pct(median(reported))})`,
        );
      }
    }
  return lines.join('\n');
}

describe.skipIf(clients.length === 0)('trimmed sessions resumed with the real Claude Code CLI', () => {
  for (const client of clients) {
    describe(`Claude Code ${client.version}`, () => {
      describe('sample-sessions', () => {
        for (const file of sampleFiles()) {
          it(`${basename(file)} sends every text, paired tools and no thinking, in fewer chars`, () => compareResumes(client, file, ['sample']), 2 * RESUME_TIMEOUT_MS + 30_000);
        }
      });

      describe.skipIf(!HAS_CORPUS)('corpus', () => {
        for (const file of corpusFiles().filter((f) => !isSubagentFile(f))) {
          it(
            `${basename(file)} sends every text, paired tools and no thinking, in fewer chars (project absent, and its files replayed from the log)`,
            () => compareResumes(client, file, ['corpus', 'corpus, files replayed']),
            3 * RESUME_TIMEOUT_MS + 30_000,
          );
        }
      });

      describe.skipIf(!HAS_RECENT_CORPUS)('corpus of 2.1.50 to 2.1.229', () => {
        for (const file of recentCorpusFiles()) {
          it(`${basename(file)} sends every text, paired tools and no thinking, in fewer chars`, () => compareResumes(client, file, ['corpus recent']), 2 * RESUME_TIMEOUT_MS + 30_000);
        }
      });
    });
  }

  it('reports the reduction of the sent message tokens', () => {
    expect(measured.length).toBeGreaterThan(0);
    console.log(`\nSent message tokens (o200k over JSON of messages), original vs trimmed:\n${summaryTable(measured)}`);
  });
});
