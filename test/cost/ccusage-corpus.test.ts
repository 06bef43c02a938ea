// On the corpus, cmv analyze and ccusage (npm, offline prices) agree within 1% per session once
// both count each response once. Each log goes into a project folder of its own in a scratch
// CLAUDE_CONFIG_DIR, so ccusage's session report has one row per log. Sessions whose models
// ccusage's bundled table cannot price (it reports $0 for them) are left out.
//
// NOT YET PASSING, so run only with CMV_CCUSAGE_CORPUS=1. First score (ccusage 18.0.11, the last
// release that runs on node 20; 20.x needs a native optional package npm did not install here):
// 45 of the 68 corpus logs differ by more than 1%, cmv always higher (2-56%). ccusage 18 prices
// every cache write at the 5-minute rate; cmv prices the 1-hour writes the log splits out at 2x
// input, as Anthropic bills them. The counting (each response once) is not the cause.

import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR, HAS_CORPUS } from '../helpers/corpus.js';
import { analysePaths } from '../../src/analyze/analysis.js';
import { builtinModels } from '../../src/cost/models.js';

const CCUSAGE = join(__dirname, '..', '..', 'node_modules', 'ccusage', 'dist', 'index.js');
const scratch = mkdtempSync(join(tmpdir(), 'cmv-ccusage-corpus-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!HAS_CORPUS || process.env.CMV_CCUSAGE_CORPUS !== '1')('cmv analyze and ccusage on the corpus', () => {
  it('agree within 1% per session', async () => {
    const files: string[] = [];
    for (const dir of [CORPUS_DIR, join(CORPUS_DIR, '..', 'claude-code-recent')]) {
      for (const f of readdirSync(dir)) if (f.endsWith('.jsonl')) files.push(join(dir, f));
    }
    const projects = join(scratch, 'projects');
    files.forEach((file, i) => {
      mkdirSync(join(projects, `s${i}`), { recursive: true });
      copyFileSync(file, join(projects, `s${i}`, basename(file)));
    });
    const run = spawnSync(process.execPath, [CCUSAGE, 'session', '--json', '--offline'], { env: { ...process.env, CLAUDE_CONFIG_DIR: scratch }, encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(run.status, run.stderr).toBe(0);
    const theirs = new Map<string, { totalCost: number; outputTokens: number; cacheReadTokens: number }>();
    for (const s of JSON.parse(run.stdout).sessions) theirs.set(s.sessionId, s);
    const report = await analysePaths([projects], { models: [...builtinModels()], jobs: 1 });
    const rows: string[] = [];
    let compared = 0;
    for (const s of report.sessions) {
      const folder = basename(join(s.path, '..'));
      const ccusage = theirs.get(folder);
      if (!ccusage || s.source !== 'usage') continue;
      compared++;
      const priced = ccusage.totalCost > 0;
      const off = priced ? Math.abs(s.cost - ccusage.totalCost) / ccusage.totalCost : 0;
      if (off > 0.01) rows.push(`${basename(s.path)}: cmv $${s.cost.toFixed(4)} ccusage $${ccusage.totalCost.toFixed(4)} (${(off * 100).toFixed(2)}%)`);
    }
    expect(compared).toBeGreaterThan(20);
    expect(rows).toEqual([]);
  }, 300_000);
});
