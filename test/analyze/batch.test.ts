// Batch analysis in this thread (the worker threads run from the built CLI, in analyze-cli.test):
// finding the logs, going on past bad files, and the aggregate figures.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBatchFiles } from '../../src/analyze/batch-files.js';
import { analyseBatch } from '../../src/analyze/batch.js';
import { aggregate, countEachResponseOnce, bucketOf } from '../../src/analyze/aggregate.js';
import { toCsv, toMarkdown } from '../../src/analyze/report-formats.js';
import type { SessionSummary } from '../../src/analyze/session-summary.js';
import { builtinModels } from '../../src/cost/models.js';
import { sessionRecords, toJsonl } from '../session/fixtures.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cmv-batch-'));
  const project = join(root, 'projects', '-home-me-app');
  mkdirSync(join(project, 'aaaa0001', 'subagents'), { recursive: true });
  writeFileSync(join(project, 'aaaa0001.jsonl'), toJsonl(sessionRecords({ turns: 4, sessionId: 'aaaa0001' })));
  writeFileSync(join(project, 'aaaa0001', 'subagents', 'agent-a1.jsonl'), toJsonl(sessionRecords({ turns: 1, sessionId: 'aaaa0001' })));
  copyFileSync(join(SAMPLE_DIR, 'large-read-image.jsonl'), join(project, 'bbbb0002.jsonl'));
  writeFileSync(join(project, 'broken.jsonl'), '\u0000\u0001 binary junk\n{ not json\n');
  writeFileSync(join(project, 'title-only.jsonl'), '{"type":"summary","summary":"A title","leafUuid":"x"}\n');
  writeFileSync(join(project, 'notes.txt'), 'not a log');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('finding the logs', () => {
  it('takes every .jsonl under a folder and tells subagent transcripts apart', async () => {
    const { files, missing } = await findBatchFiles([root]);
    expect(files.map((f) => f.path.split('/').slice(-1)[0]).sort()).toEqual(['aaaa0001.jsonl', 'agent-a1.jsonl', 'bbbb0002.jsonl', 'broken.jsonl', 'title-only.jsonl']);
    expect(files.find((f) => f.path.endsWith('agent-a1.jsonl'))!.kind).toBe('subagent');
    expect(files.find((f) => f.path.endsWith('aaaa0001.jsonl'))!.kind).toBe('main');
    expect(missing).toEqual([]);
  });

  it('expands globs, finds every config dir without arguments, and reports what names nothing', async () => {
    const glob = await findBatchFiles([join(root, 'projects', '*', 'bb*.jsonl'), join(root, 'nope.jsonl'), join(root, 'x*.jsonl')]);
    expect(glob.files.map((f) => f.path.split('/').slice(-1)[0])).toEqual(['bbbb0002.jsonl']);
    expect(glob.missing.map((m) => m.error)).toEqual(['no such file or folder', 'the pattern matches no file']);
    const all = await findBatchFiles([], [root, join(root, 'no-such-config')]);
    expect(all.files).toHaveLength(5);
  });
});

describe('a batch', () => {
  it('reports a bad file and goes on with the others', async () => {
    const { files } = await findBatchFiles([root]);
    const seen: number[] = [];
    const result = await analyseBatch(files, { jobs: 1, models: [...builtinModels()], onProgress: (p) => seen.push(p.done) });
    expect(result.sessions.map((s) => s.path.split('/').slice(-1)[0])).toEqual(['aaaa0001.jsonl', 'agent-a1.jsonl', 'bbbb0002.jsonl']);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0].path).toMatch(/broken\.jsonl$/);
    expect(result.failed[0].error).toMatch(/not a Claude Code session log/);
    expect(result.skipped.map((s) => s.path)).toEqual([expect.stringMatching(/title-only\.jsonl$/)]);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    const subagent = result.sessions.find((s) => s.path.endsWith('agent-a1.jsonl'))!;
    expect(subagent.kind).toBe('subagent');
    const a = aggregate(result.sessions, result.failed, result.skipped);
    expect(a).toMatchObject({ files: 3, sessions: 2, subagents: 1, failed: 1, skipped: 1 });
  });
});

function summary(over: Partial<SessionSummary>): SessionSummary {
  return {
    path: '/p/x.jsonl',
    sessionId: 'x',
    kind: 'main',
    project: '/home/me/app',
    bytes: 1000,
    model: 'claude-opus-4-6',
    pricedAs: 'opus-4.6',
    firstTimestamp: null,
    lastTimestamp: null,
    tokens: 100_000,
    tokensAfter: 60_000,
    reduction: 0.4,
    composition: { userText: 0, assistantText: 0, thinking: 0, toolUseInput: 0, toolResult: 0, image: 0 },
    toolResultShare: 0.5,
    tier: 'heavy',
    source: 'usage',
    calls: 10,
    cost: 1,
    repeatedCost: 0,
    derivedFrom: null,
    ttlRewrites: 0,
    penalty: 0.2,
    savingPerTurn: 0.02,
    breakEvenTurns: 11,
    coldBreakEvenTurns: 1,
    saving50: 0.8,
    curve: [],
    ...over,
  };
}

describe('one API response counted once across files', () => {
  it('books a response to the earliest file holding it and moves its cost out of later ones', () => {
    const first = summary({
      path: '/p/a.jsonl',
      firstTimestamp: '2026-01-01T00:00:00Z',
      cost: 3,
      responses: [
        ['m1:r1', 1],
        ['m2:r2', 2],
      ],
    });
    const resumed = summary({
      path: '/p/b.jsonl',
      firstTimestamp: '2026-01-01T00:00:00Z',
      cost: 7,
      responses: [
        ['m1:r1', 1],
        ['m2:r2', 2],
        ['m3:r3', 4],
      ],
    });
    const earlier = summary({ path: '/p/c.jsonl', firstTimestamp: '2025-12-31T00:00:00Z', cost: 0.5, responses: [['m0:r0', 0.5]] });
    const [a, b, c] = countEachResponseOnce([first, resumed, earlier]);
    expect(a).toMatchObject({ cost: 3, repeatedCost: 0 });
    expect(b).toMatchObject({ cost: 4, repeatedCost: 3 });
    expect(c).toMatchObject({ cost: 0.5, repeatedCost: 0 });
    expect(a.responses).toBeUndefined();
    expect(aggregate([a, b, c])).toMatchObject({ cost: 7.5, repeatedCost: 3 });
  });
});

describe('the aggregate', () => {
  it('buckets break-even like the CMV evaluation', () => {
    expect([1, 5, 6, 10, 11, 20, 21, 59, 60, null].map(bucketOf)).toEqual(['<=5', '<=5', '6-10', '6-10', '11-20', '11-20', '21-59', '21-59', 'never', 'never']);
  });

  it('spreads reduction and break-even over main sessions only, by tier and by project', () => {
    const sessions = [
      summary({ path: '/a', reduction: 0.5, breakEvenTurns: 3, saving50: 2 }),
      summary({ path: '/b', reduction: 0.1, breakEvenTurns: null, tier: 'light', toolResultShare: 0.05, project: '/home/me/other', saving50: 0 }),
      summary({ path: '/c', reduction: 0.3, breakEvenTurns: 15, tier: 'mixed', toolResultShare: 0.3, saving50: 1 }),
      summary({ path: '/d', reduction: 0.9, breakEvenTurns: 2, kind: 'subagent', saving50: 9 }),
    ];
    const a = aggregate(sessions);
    expect(a.reduction).toEqual({ mean: 0.3, median: 0.3, min: 0.1, max: 0.5 });
    expect(a.breakEven).toEqual({ '<=5': 1, '6-10': 0, '11-20': 1, '21-59': 0, never: 1 });
    expect(a.tiers.heavy).toMatchObject({ sessions: 1, meanReduction: 0.5, medianBreakEvenTurns: 3, never: 0 });
    expect(a.tiers.light).toMatchObject({ sessions: 1, medianBreakEvenTurns: null, never: 1 });
    expect(a.projects.map((p) => [p.project, p.sessions])).toEqual([
      ['/home/me/app', 2],
      ['/home/me/other', 1],
    ]);
    expect(a.topSavings.map((t) => t.path)).toEqual(['/a', '/c']);
    expect(a).toMatchObject({ files: 4, sessions: 3, subagents: 1, bytes: 4000 });
  });
});

describe('report formats', () => {
  it('writes one CSV row per file, quoting what needs it, failures with their error', () => {
    const csv = toCsv([summary({ path: '/p/a,b.jsonl', project: 'say "hi"' })], [{ path: '/p/bad.jsonl', error: 'broken, badly' }]);
    const rows = csv.trimEnd().split('\r\n');
    expect(rows).toHaveLength(3);
    expect(rows[0].split(',').slice(0, 3)).toEqual(['path', 'sessionId', 'kind']);
    expect(rows[1]).toMatch(/^"\/p\/a,b\.jsonl",x,main,"say ""hi""",/);
    expect(rows[2]).toMatch(/^\/p\/bad\.jsonl,+"broken, badly"$/);
  });

  it('writes the Markdown report with its sections', () => {
    const sessions = [summary({})];
    const md = toMarkdown(aggregate(sessions), sessions, [{ path: '/p/bad.jsonl', error: 'broken' }]);
    for (const heading of ['# cmv analyze', '## Reduction of a trim', '## Break-even', '## Tiers by tool-result share', '## Projects', '## Where a trim pays most', '## Failed']) {
      expect(md).toContain(heading);
    }
    expect(md).toContain('| 40.0% | 40.0% | 40.0% | 40.0% |');
  });
});
