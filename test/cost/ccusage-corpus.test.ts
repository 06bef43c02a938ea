// On the corpus, cmv analyze and ccusage (npm, offline prices) agree within 1% per session once
// both count each response once. Each log goes into a project folder of its own in a scratch
// CLAUDE_CONFIG_DIR; ccusage runs once over it (its native build: about a second).
//
// History: ccusage 18.0.11 priced every cache write at the 5-minute rate, and 45 of the 68 logs
// differed by 2-56%. ccusage 20.0.24 prices 1-hour writes at 2x input as cmv does; one log then
// differed by 2.49%: its advisor calls (usage.iterations of type advisor_message, on
// claude-opus-5), which ccusage counts and cmv left out. With those counted (usage-record.ts) all
// 68 agree within 0.035%. The rest: where a response's 5m/1h split covers less than its cache
// writes (an advisor response), ccusage prices the split alone and cmv the whole figure, the rest
// at the 5-minute rate (2,701 tokens in that log).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allCorpusFiles, HAS_CORPUS, HAS_RECENT_CORPUS } from '../helpers/corpus.js';
import { analysePaths } from '../../src/analyze/analysis.js';
import { builtinModels } from '../../src/cost/models.js';
import { CCUSAGE_PLATFORM, runCcusage } from '../helpers/ccusage.js';

const scratch = mkdtempSync(join(tmpdir(), 'cmv-ccusage-corpus-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!HAS_CORPUS || !HAS_RECENT_CORPUS || !CCUSAGE_PLATFORM)('cmv analyze and ccusage on the corpus', () => {
  it('agree within 1% per session', async () => {
    const files = allCorpusFiles();
    const projects = join(scratch, 'projects');
    files.forEach((file, i) => {
      mkdirSync(join(projects, `s${i}`), { recursive: true });
      copyFileSync(file, join(projects, `s${i}`, basename(file)));
    });
    const run = runCcusage(scratch);
    expect(run.status, String(run.stderr)).toBe(0);
    // ccusage 20 names a session by its log's file name (period), one row per log.
    const theirs = new Map<string, { totalCost: number; outputTokens: number; cacheReadTokens: number }>();
    for (const s of JSON.parse(String(run.stdout)).session) theirs.set(s.period, s);
    const report = await analysePaths([projects], { models: [...builtinModels()], jobs: 1 });
    const rows: string[] = [];
    let compared = 0;
    for (const s of report.sessions) {
      const ccusage = theirs.get(basename(s.path, '.jsonl'));
      if (!ccusage || s.source !== 'usage') continue;
      compared++;
      const off = ccusage.totalCost > 0 ? Math.abs(s.cost - ccusage.totalCost) / ccusage.totalCost : Infinity;
      if (off > 0.01) rows.push(`${basename(s.path)}: cmv $${s.cost.toFixed(4)} ccusage $${ccusage.totalCost.toFixed(4)} (${(off * 100).toFixed(2)}%)`);
    }
    // Every log of both corpora has usage figures and is priced by both.
    expect(compared).toBe(files.length);
    expect(rows).toEqual([]);
  }, 300_000);
});
