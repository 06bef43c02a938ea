// The trim's sent-token reduction, measured in the real client's request (run by bench/trim.js
// through vitest, which loads the TypeScript e2e helpers). For each tool-heavy real log of both
// corpora (tool calls and results at least half of what it sends, at least 20,000 tokens sent):
// the original, its trim with the project's files absent, its trim with them present (replayed
// from the log's own Edit/Write/Read records), and the lossless limit (the trimmed log with every
// tool input and result replaced by a ~30-token placeholder), each resumed in the same client.
// Environment: CMV_BENCH_CLIENT (version, default 2.1.332), CMV_BENCH_ONLY (regex on file names),
// CMV_BENCH_BREAKDOWN=1 (where the trimmed request's tokens go, pooled), CMV_BENCH_THRESHOLD (the
// trim's --threshold; default the trim's own), CMV_BENCH_DUMP (a folder: each trimmed request's body is
// written there as JSON, to study what stays).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { trimSession } from '../src/trim/trim.js';
import { countTokens } from '../src/tokens/counter.js';
import { clientsUnderTest, resumeAndCapture, writeSessionLines, type ClaudeClient } from '../test/e2e/claude-client.js';
import { blocksOf, conversationTexts, isClientAddedText, messagesOf, normaliseTexts, toolPairFaults, type RequestText } from '../test/e2e/request-texts.js';
import { mean, median, messageTokens, missingTexts, pct, table } from '../test/e2e/request-measures.js';
import { corpusFiles, recentCorpusFiles, isSubagentFile } from '../test/helpers/corpus.js';
import { replayedDisk } from '../test/helpers/replayed-files.js';

const TOOL_HEAVY_SHARE = 0.5;
const LONG_SESSION_TOKENS = 20_000;
const TARGETS = { absent: 0.75, present: 0.8 };
const RESUME_TIMEOUT_MS = 120_000;
const PROMPT = 'hi';

const version = process.env.CMV_BENCH_CLIENT ?? '2.1.332';
const only = process.env.CMV_BENCH_ONLY ? new RegExp(process.env.CMV_BENCH_ONLY) : undefined;
const withBreakdown = process.env.CMV_BENCH_BREAKDOWN === '1';
const dumpTo = process.env.CMV_BENCH_DUMP;
const overrides = process.env.CMV_BENCH_THRESHOLD ? { threshold: Number(process.env.CMV_BENCH_THRESHOLD) } : {};
const client: ClaudeClient | undefined = clientsUnderTest().find((c) => c.version === version);
const scratch = mkdtempSync(join(tmpdir(), 'cmv-bench-reduction-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What an original log's resume sent: cached per client and file, since no trim changes it. */
interface OriginalFigures {
  tokens: number;
  toolShare: number;
  texts: RequestText[];
}

const CACHE_DIR = join(tmpdir(), 'cmv-bench-reduction-cache', version);

function toolShare(body: any, total: number): number {
  let tools = 0;
  for (const message of messagesOf(body)) for (const block of blocksOf(message)) if (block.type === 'tool_use' || block.type === 'tool_result') tools += countTokens(JSON.stringify(block));
  return total > 0 ? tools / total : 0;
}

async function resumed(file: string): Promise<any> {
  const capture = await resumeAndCapture(file, { prompt: PROMPT, timeoutMs: RESUME_TIMEOUT_MS, client });
  return capture.request;
}

async function original(file: string): Promise<OriginalFigures | undefined> {
  const { size, mtimeMs } = statSync(file);
  const cached = join(CACHE_DIR, `${basename(dirname(file))}--${basename(file)}.json`);
  if (existsSync(cached)) {
    const hit = JSON.parse(readFileSync(cached, 'utf8'));
    if (hit.size === size && hit.mtimeMs === mtimeMs) return hit.figures ?? undefined;
  }
  const request = await resumed(file);
  const tokens = request ? messageTokens(request) : 0;
  const figures = request ? { tokens, toolShare: toolShare(request, tokens), texts: normaliseTexts(conversationTexts(request)) } : undefined;
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(cached, JSON.stringify({ size, mtimeMs, figures: figures ?? null }));
  return figures;
}

/** The trimmed log with every tool input and result a minimal placeholder: what a lossless trim could reach at best. */
function limitLines(lines: Buffer[]): Buffer[] {
  return lines.map((raw) => {
    let record: any;
    try {
      record = JSON.parse(raw.toString('utf8'));
    } catch {
      return raw;
    }
    const content = record?.message?.content;
    if (!Array.isArray(content)) return raw;
    let changed = false;
    for (const block of content) {
      if (block?.type === 'tool_use') {
        block.input = {};
        changed = true;
      } else if (block?.type === 'tool_result') {
        block.content = 'elided';
        changed = true;
      }
    }
    if (!changed) return raw;
    if ('toolUseResult' in record) record.toolUseResult = 'elided';
    return Buffer.from(JSON.stringify(record));
  });
}

interface Row {
  corpus: string;
  file: string;
  tokens: number;
  absent: number;
  present: number;
  limit: number;
  lost: string[];
}

/** Where a request's message tokens go, by kind of content. */
type Breakdown = Map<string, number>;
const pooled = { absent: new Map() as Breakdown, present: new Map() as Breakdown };

function add(into: Breakdown, kind: string, tokens: number): void {
  into.set(kind, (into.get(kind) ?? 0) + tokens);
}

function resultText(block: any): string {
  if (typeof block.content === 'string') return block.content;
  return Array.isArray(block.content) ? block.content.map((b: any) => (b?.type === 'text' ? b.text : '')).join('') : '';
}

function breakdownOf(body: any, into: Breakdown): void {
  const toolNames = new Map<string, string>();
  for (const message of messagesOf(body)) {
    if (message.role === 'system') continue;
    for (const block of blocksOf(message) as any[]) {
      const tokens = countTokens(JSON.stringify(block));
      if (block.type === 'text') {
        if (isClientAddedText(String(block.text))) continue;
        add(into, `${message.role} text`, tokens);
      } else if (block.type === 'thinking' || block.type === 'redacted_thinking') add(into, 'thinking', tokens);
      else if (block.type === 'tool_use') {
        toolNames.set(block.id, block.name);
        add(into, `input ${block.name}`, tokens);
      } else if (block.type === 'tool_result') {
        const name = toolNames.get(block.tool_use_id) ?? '?';
        const text = resultText(block);
        const kind = block.is_error ? 'error' : text.includes('[cmv:') ? 'stub' : name === 'Task' || name === 'Agent' ? 'subagent report' : 'whole';
        add(into, `result ${kind}${kind === 'stub' || kind === 'whole' ? ` ${name}` : ''}`, tokens);
      } else add(into, `other ${block.type}`, tokens);
    }
  }
}

function printBreakdown(label: string, into: Breakdown): void {
  const total = [...into.values()].reduce((a, b) => a + b, 0);
  const rows = [...into.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([kind, tokens]) => [kind, String(tokens), pct(tokens / total)]);
  console.log(`\nwhere the trimmed request's tokens go, ${label}, pooled over the logs (${total} tokens):\n${table(['kind', 'tokens', 'share'], rows).join('\n')}`);
}

async function trimmedRequest(file: string, lines: Buffer[]): Promise<any> {
  const path = join(scratch, `${randomUUID()}.jsonl`);
  writeSessionLines(path, lines);
  try {
    return await resumed(path);
  } finally {
    rmSync(path, { force: true });
  }
}

async function measure(file: string, figures: OriginalFigures): Promise<Row> {
  const row: Row = { corpus: basename(dirname(file)), file: basename(file), tokens: figures.tokens, absent: NaN, present: NaN, limit: NaN, lost: [] };
  const reduction = (request: any) => 1 - messageTokens(request) / figures.tokens;
  const check = (label: string, request: any) => {
    if (!request) {
      row.lost.push(`${label}: no request`);
      return;
    }
    const missing = missingTexts(figures.texts, normaliseTexts(conversationTexts(request)));
    if (missing) row.lost.push(`${label}: texts missing\n${missing}`);
    const faults = toolPairFaults(request);
    if (faults.length) row.lost.push(`${label}: ${faults.length} tool pairing faults`);
  };
  const absent = await trimSession(file, overrides, { newSessionId: randomUUID() });
  if (!absent.verify.ok) row.lost.push('absent: the trim did not verify');
  const absentRequest = await trimmedRequest(file, absent.lines);
  check('absent', absentRequest);
  if (absentRequest) row.absent = reduction(absentRequest);
  if (withBreakdown && absentRequest) breakdownOf(absentRequest, pooled.absent);
  if (dumpTo && absentRequest) writeFileSync(join(dumpTo, `${row.file}.absent.json`), JSON.stringify(absentRequest));

  const replayed = replayedDisk(file);
  const present = await trimSession(file, overrides, { newSessionId: randomUUID(), fileHolds: replayed.holds, fileLines: replayed.lines });
  if (!present.verify.ok) row.lost.push('present: the trim did not verify');
  const presentRequest = await trimmedRequest(file, present.lines);
  check('present', presentRequest);
  if (presentRequest) row.present = reduction(presentRequest);
  if (withBreakdown && presentRequest) breakdownOf(presentRequest, pooled.present);
  if (dumpTo && presentRequest) writeFileSync(join(dumpTo, `${row.file}.present.json`), JSON.stringify(presentRequest));

  const limitRequest = await trimmedRequest(file, limitLines(absent.lines));
  if (limitRequest) row.limit = reduction(limitRequest);
  return row;
}

it.skipIf(!client)(`trim reduction in the real client's request (Claude Code ${version})`, async () => {
  const files = [...corpusFiles(), ...recentCorpusFiles()].filter((f) => !isSubagentFile(f) && (!only || only.test(basename(f))));
  expect(files.length, 'no corpus logs at ../shared/corpus').toBeGreaterThan(0);
  const rows: Row[] = [];
  let others = 0;
  for (const file of files) {
    const figures = await original(file);
    if (!figures || figures.tokens < LONG_SESSION_TOKENS || figures.toolShare < TOOL_HEAVY_SHARE) {
      others++;
      continue;
    }
    const row = await measure(file, figures);
    rows.push(row);
    console.log(
      `${row.corpus}/${row.file}: ${row.tokens} tokens sent; removed: absent ${pct(row.absent)}, present ${pct(row.present)}, limit ${pct(row.limit)}${row.lost.length ? `; LOST ${row.lost.join('; ')}` : ''}`,
    );
  }
  const body = rows.map((r) => [
    `${r.corpus === 'claude-code' ? '' : 'recent/'}${r.file.slice(0, 56)}`,
    String(r.tokens),
    pct(r.absent),
    pct(r.present),
    pct(r.limit),
    r.lost.length ? 'LOST' : 'none',
  ]);
  const col = (k: 'absent' | 'present' | 'limit') => rows.map((r) => r[k]);
  const lines = table(['log (tool-heavy, >= 20k tokens sent)', 'sent tok', 'absent', 'present', 'limit', 'texts lost'], body);
  console.log(`\nSent message tokens removed by the trim, Claude Code ${version} (${rows.length} logs; ${others} other main logs are short or not tool-heavy):\n${lines.join('\n')}`);
  console.log(
    `mean: absent ${pct(mean(col('absent')))} (target >= ${pct(TARGETS.absent)}), present ${pct(mean(col('present')))} (target >= ${pct(TARGETS.present)}), lossless limit ${pct(mean(col('limit')))}`,
  );
  console.log(`means to two decimals: absent ${(100 * mean(col('absent'))).toFixed(2)}%, present ${(100 * mean(col('present'))).toFixed(2)}%, limit ${(100 * mean(col('limit'))).toFixed(2)}%`);
  console.log(`median: absent ${pct(median(col('absent')))}, present ${pct(median(col('present')))}, lossless limit ${pct(median(col('limit')))}`);
  console.log(`logs with a text lost or a pairing fault: ${rows.filter((r) => r.lost.length).length}`);
  if (withBreakdown) {
    printBreakdown('files absent', pooled.absent);
    printBreakdown('files present', pooled.present);
  }
  expect(rows.filter((r) => r.lost.length).map((r) => `${r.file}: ${r.lost.join('; ')}`)).toEqual([]);
});
