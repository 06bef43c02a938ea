// End-to-end check of the conversation model against the real Claude Code CLI: every session file
// is resumed offline (mock API on 127.0.0.1) and the texts the CLI actually sent are compared with
// what `sentTexts` predicts it sends. Slow (seconds per file); skipped when the CLI is not installed.

import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { clientModelFor } from '../../src/session/clients.js';
import { clientsUnderTest, resumeAndCapture, type ClaudeClient } from './claude-client.js';
import { conversationTexts, isClientTaskNotification, normaliseTexts, diffTexts, requestSizes, summarizeRequest, type RequestText, type TextMismatch } from './request-texts.js';
import { CORPUS_DIR, RECENT_CORPUS_DIR, SAMPLE_DIR, SAMPLE_DIR_332, isSubagentFile } from '../helpers/corpus.js';

const RESUME_TIMEOUT_MS = 60_000;
const VERBOSE = process.env.CMV_E2E_VERBOSE === '1';

function jsonlFiles(dir: string, accept: (name: string) => boolean = () => true): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl') && accept(name))
    .sort()
    .map((name) => join(dir, name));
}

const clients = clientsUnderTest();
const groups: Array<[string, string[]]> = [
  ['sample-sessions', jsonlFiles(SAMPLE_DIR)],
  ['sample-sessions/2.1.332', jsonlFiles(SAMPLE_DIR_332)],
  ['corpus', jsonlFiles(CORPUS_DIR, (name) => !isSubagentFile(name))],
  ['corpus recent', jsonlFiles(RECENT_CORPUS_DIR)],
];

function clip(text: string, n = 100): string {
  return JSON.stringify(text.length > n ? `${text.slice(0, n)}…` : text);
}

function describeMismatches(mismatches: TextMismatch[], limit = 20): string {
  const shown = mismatches.slice(0, limit).map((m) => `  ${m.kind === 'missing' ? '- predicted, not sent' : '+ sent, not predicted'} #${m.index} ${m.role}: ${clip(m.text)}`);
  if (mismatches.length > limit) shown.push(`  … ${mismatches.length - limit} more`);
  return shown.join('\n');
}

describe.skipIf(clients.length === 0)('resumed conversation: sentTexts vs the real Claude Code CLI', () => {
  for (const client of clients) describe(`Claude Code ${client.version}`, () => clientSuite(client));
});

function clientSuite(client: ClaudeClient): void {
  for (const [group, files] of groups) {
    describe(group, () => {
      if (files.length === 0) {
        it.skip(`no session files in ${group}`, () => {});
        return;
      }
      for (const file of files) {
        it(
          basename(file),
          async () => {
            const session = await openSession(file, { findSubagents: false, client: clientModelFor(client.version) });
            const predicted: RequestText[] = normaliseTexts(sentTexts(session).map(({ role, text }) => ({ role, text })));
            const capture = await resumeAndCapture(file, { timeoutMs: RESUME_TIMEOUT_MS, client });
            const context = `${basename(file)}: exit ${capture.exitCode}${capture.timedOut ? ' (timed out)' : ''} in ${capture.durationMs} ms`;
            if (!capture.request) {
              // The CLI refuses files without a conversation; then the model must predict none either.
              expect(predicted, `${context}; no main-loop request sent; stderr: ${capture.stderr.slice(0, 500)}`).toEqual([]);
              return;
            }
            const sent = normaliseTexts(conversationTexts(capture.request));
            const sizes = requestSizes(capture.request);
            if (VERBOSE) {
              console.log(`${context}: ${sizes.messages} messages, ${sizes.messagesChars} chars, ${sent.length} texts sent, ${predicted.length} predicted`);
            }
            const mismatches = diffTexts(predicted, sent).filter((m) => !(clientModelFor(client.version).systemRoleContext && isClientTaskNotification(m)));
            if (mismatches.length > 0 && VERBOSE) console.log(summarizeRequest(capture.request));
            expect(capture.exitCode, `${context}; stderr: ${capture.stderr.slice(0, 500)}`).toBe(0);
            expect(mismatches, `${context}: ${mismatches.length} text mismatch(es), ${sent.length} sent vs ${predicted.length} predicted\n${describeMismatches(mismatches)}`).toEqual([]);
          },
          RESUME_TIMEOUT_MS + 30_000,
        );
      }
    });
  }
}
