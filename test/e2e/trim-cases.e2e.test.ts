// The trim cases of issue 16 in the real Claude Code CLI (and the ~50 MB log stitched from every main
// corpus log with its original timestamps): each log is resumed as it is and
// as trimmed. The client sends what the model predicts from the original, and the trimmed log
// sends every user and assistant text the original's resume sends, in order, with its tools paired.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { clientsUnderTest, describeRun, resumeAndCapture, writeSessionLines, type ClaudeClient } from './claude-client.js';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { clientModelFor } from '../../src/session/clients.js';
import { conversationTexts, normaliseTexts, summarizeRequest, toolPairFaults } from './request-texts.js';
import { missingTexts } from './request-measures.js';
import { smallCaseD, writeTrimCases, type TrimCase } from '../trim/trim-case-logs.js';
import { allCorpusFiles, CORPUS_DIR, HAS_CORPUS, HAS_RECENT_CORPUS, isSubagentFile } from '../helpers/corpus.js';
import { BUILD, buildIfStale } from '../helpers/built-cli.js';

const RESUME_TIMEOUT_MS = 60_000;
const clients = clientsUnderTest();
const dir = mkdtempSync(join(tmpdir(), 'cmv-trim-cases-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cases = [...writeTrimCases(dir), smallCaseD(dir)];
let stitchedPath: string | undefined;
const stitched = (): string => (stitchedPath ??= stitchedCorpus());

/**
 * Issue 16's stitched log: every main log of both corpora, end to end until ~50 MB, each line with
 * its original timestamp (bench/stitch.js --original-times), so the newest entry lies before the
 * last compaction boundary in file order, as in a real log stitched from many sessions.
 */
function stitchedCorpus(): string {
  const out = join(dir, 'stitched-50.jsonl');
  const sources = allCorpusFiles().filter((f) => !isSubagentFile(f));
  const made = spawnSync(process.execPath, [join(__dirname, '..', '..', 'bench', 'stitch.js'), '--original-times', out, '50', ...sources], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  return out;
}

/** The hook bench's log (bench/hook.js): the main logs of the older corpus stitched to ~50 MB, every line one JSON record (`--parsed-only`), as a live session's log is. */
let benchLogPath: string | undefined;
function hookBenchLog(): string {
  if (benchLogPath) return benchLogPath;
  const out = join(dir, 'hook-bench-50.jsonl');
  const sources = allCorpusFiles().filter((f) => f.startsWith(CORPUS_DIR) && !isSubagentFile(f));
  const made = spawnSync(process.execPath, [join(__dirname, '..', '..', 'bench', 'stitch.js'), '--parsed-only', out, '50', ...sources], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  return (benchLogPath = out);
}

async function resumeBoth(client: ClaudeClient, c: Pick<TrimCase, 'path' | 'resumes'> & { id: string }): Promise<void> {
  const original = await resumeAndCapture(c.path, { timeoutMs: RESUME_TIMEOUT_MS, client });
  expect(original.request, describeRun(`${c.id} original`, original)).toBeDefined();
  const sentByOriginal = normaliseTexts(conversationTexts(original.request));
  expect(sentByOriginal.length, `${c.id}: the original's resume sends texts`).toBeGreaterThan(0);
  // What the model of this client says the original resumes is what the client sent (for 2.1.100
  // also what the case states: 2.1.332 resumes case C's last segment, by file order).
  const model = await openSession(c.path, { findSubagents: false, client: clientModelFor(client.version) });
  expect(
    sentByOriginal.map((t) => t.text),
    summarizeRequest(original.request),
  ).toEqual(normaliseTexts(sentTexts(model).map(({ role, text }) => ({ role, text }))).map((t) => t.text));
  if (client.version === '2.1.100' && c.resumes.length > 0) expect(sentByOriginal.map((t) => t.text)).toEqual(c.resumes);

  const result = await trimSession(c.path, {});
  expect(result.verify.faults).toEqual([]);
  const trimmedFile = join(dir, `${c.id}-${c.resumes.length}-${client.version}-trimmed.jsonl`);
  writeSessionLines(trimmedFile, result.lines);
  const trimmed = await resumeAndCapture(trimmedFile, { timeoutMs: RESUME_TIMEOUT_MS, client });
  expect(trimmed.request, describeRun(`${c.id} trimmed`, trimmed)).toBeDefined();
  const missing = missingTexts(sentByOriginal, normaliseTexts(conversationTexts(trimmed.request)));
  expect(missing, `${c.id}: texts the original's resume sends, missing after the trim\n${missing}\n${summarizeRequest(trimmed.request)}`).toBe('');
  expect(toolPairFaults(trimmed.request)).toEqual([]);
}

/**
 * The stitched log trimmed in place as the PreCompact hook trims it at its first compaction (the
 * built cmv: the snapshot's worker reads the history and hands the trim its chain), in a scratch
 * HOME where the log is named by its session id, as Claude Code names it.
 */
async function hookTrimmed(source: string, client: ClaudeClient): Promise<{ path: string; historyHanded?: boolean; verified: boolean }> {
  await buildIfStale();
  const home = join(dir, `hook-${client.version}`);
  const sessionId = 'b0b0b0b0-0000-4000-8000-0000000000e2';
  const log = join(home, 'claude', 'projects', '-tmp-hook-e2e', `${sessionId}.jsonl`);
  mkdirSync(dirname(log), { recursive: true });
  copyFileSync(source, log);
  const saved = { CMV_HOME: process.env.CMV_HOME, CMV_CONFIG: process.env.CMV_CONFIG };
  process.env.CMV_HOME = join(home, 'cmv');
  process.env.CMV_CONFIG = join(home, 'config.json');
  try {
    const built = (await import(pathToFileURL(join(BUILD, 'dist', 'hooks', 'run-hook.js')).href)) as typeof import('../../src/hooks/run-hook.js');
    const keys = (await import(pathToFileURL(join(BUILD, 'dist', 'config', 'config-keys.js')).href)) as typeof import('../../src/config/config-keys.js');
    const outcome = await built.runHook(
      'pre-compact',
      { transcript_path: log, session_id: sessionId, hook_event_name: 'PreCompact', trigger: 'auto' },
      { config: { ...keys.defaultConfig(), 'hook.snapshot': true } },
    );
    expect(outcome.action, outcome.notes.join('; ')).toBe('trimmed');
    expect(outcome.snapshot).toBeDefined();
    // The log, as Claude Code finds it after the hook: verified like any trim output.
    const verified = (await trimSession(log, { keepHistory: true, historyAsIs: true })).verify.faults.length === 0;
    return { path: log, historyHanded: outcome.historyHanded, verified };
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

describe.skipIf(clients.length === 0)('trim cases resumed in the real Claude Code CLI', () => {
  for (const client of clients) {
    describe(`Claude Code ${client.version}`, () => {
      for (const c of cases) {
        it(`${c.id} (${c.shape}): the trimmed log sends every text of the original's resume, in order`, () => resumeBoth(client, c), 2 * RESUME_TIMEOUT_MS + 30_000);
      }
      it.skipIf(!HAS_CORPUS || !HAS_RECENT_CORPUS)(
        "a ~50 MB log stitched from every main corpus log, original timestamps: the trimmed log sends every text of the original's resume, in order",
        () => resumeBoth(client, { id: 'stitched', path: stitched(), resumes: [] }),
        2 * RESUME_TIMEOUT_MS + 120_000,
      );
      it.skipIf(!HAS_CORPUS || !HAS_RECENT_CORPUS)(
        "the hook bench's ~50 MB log trimmed in place by the PreCompact hook at its first compaction (the snapshot handing the trim the history's chain): it sends every text of the original's resume, in order",
        async () => {
          const hooked = await hookTrimmed(hookBenchLog(), client);
          expect(hooked.historyHanded).toBe(true);
          expect(hooked.verified).toBe(true);
          const original = await resumeAndCapture(hookBenchLog(), { timeoutMs: RESUME_TIMEOUT_MS, client });
          expect(original.request, describeRun('stitched original', original)).toBeDefined();
          const trimmed = await resumeAndCapture(hooked.path, { timeoutMs: RESUME_TIMEOUT_MS, client });
          expect(trimmed.request, describeRun('stitched, hook-trimmed', trimmed)).toBeDefined();
          const sent = normaliseTexts(conversationTexts(original.request));
          expect(sent.length).toBeGreaterThan(0);
          const missing = missingTexts(sent, normaliseTexts(conversationTexts(trimmed.request)));
          expect(missing, `texts the original's resume sends, missing after the hook's trim\n${missing}`).toBe('');
          expect(toolPairFaults(trimmed.request)).toEqual([]);
        },
        2 * RESUME_TIMEOUT_MS + 300_000,
      );
    });
  }
});
