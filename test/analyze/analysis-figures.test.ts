// Every figure `cmv analyze` prints for the sample logs and for each corpus log, pinned: token
// counts before and after a trim, the reduction, the composition, the cost of the logged calls
// and the break-even. A change to how fast analyze reads must not move any of them; a change that
// moves one on purpose rewrites the pins (CMV_WRITE_PINS=1) and says why in its commit.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analysePaths } from '../../src/analyze/analysis.js';
import { builtinModels } from '../../src/cost/models.js';
import type { SessionSummary } from '../../src/analyze/session-summary.js';
import { allCorpusFiles, HAS_CORPUS, HAS_RECENT_CORPUS, SAMPLE_DIR } from '../helpers/corpus.js';

const PINS = join(__dirname, 'analysis-figures.json');
const pinned = JSON.parse(readFileSync(PINS, 'utf8')) as Record<string, Record<string, Figures>>;

type Figures = Pick<
  SessionSummary,
  | 'tokens'
  | 'tokensAfter'
  | 'reduction'
  | 'composition'
  | 'toolResultShare'
  | 'tier'
  | 'source'
  | 'calls'
  | 'cost'
  | 'repeatedCost'
  | 'penalty'
  | 'savingPerTurn'
  | 'breakEvenTurns'
  | 'coldBreakEvenTurns'
  | 'saving50'
  | 'ttlRewrites'
>;

function figures(s: SessionSummary): Figures {
  const { tokens, tokensAfter, reduction, composition, toolResultShare, tier, source, calls, cost, repeatedCost, penalty, savingPerTurn, breakEvenTurns, coldBreakEvenTurns, saving50, ttlRewrites } =
    s;
  return { tokens, tokensAfter, reduction, composition, toolResultShare, tier, source, calls, cost, repeatedCost, penalty, savingPerTurn, breakEvenTurns, coldBreakEvenTurns, saving50, ttlRewrites };
}

async function figuresOf(paths: string[]): Promise<Record<string, Figures>> {
  const report = await analysePaths(paths, { models: [...builtinModels()], jobs: 1 });
  expect(report.failed).toEqual([]);
  return Object.fromEntries(report.sessions.map((s) => [basename(s.path), figures(s)]));
}

function check(name: string, actual: Record<string, Figures>): void {
  if (process.env.CMV_WRITE_PINS === '1') {
    pinned[name] = actual;
    writeFileSync(PINS, `${JSON.stringify(pinned, null, 1)}\n`);
    return;
  }
  expect(Object.keys(actual).length).toBeGreaterThan(0);
  expect(actual).toEqual(pinned[name]);
}

describe('the figures of cmv analyze', () => {
  it('are those pinned for the sample logs', async () => {
    const samples = ['coding', 'compacted', 'resumed', 'short', 'subagent', 'large-read-image'].map((n) => join(SAMPLE_DIR, `${n}.jsonl`));
    check('samples', await figuresOf(samples));
  });

  it.skipIf(!HAS_CORPUS || !HAS_RECENT_CORPUS)(
    'are those pinned for every log of both corpora',
    async () => {
      check('corpus', await figuresOf(allCorpusFiles()));
    },
    240_000,
  );
});
