// Floors on the graph's memorybench F1 (the scorer of `npm run bench -- graph`): on the real-log
// development set (../shared/bench/realgraph), TokenMizer 21 and cmv's own held-out sets, for the
// resume block at <= 100 and <= 300 tokens and the whole graph. A change that lowers a figure below
// its floor fails here; raise the floor when a change raises the figure.

import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { buildResume } from '../../src/graph/resume-block.js';
import { CATEGORIES, blockItems, graphItems, scoreSession, scoreSet, type Category, type SessionScore, type Truth } from '../../src/graph/memory-score.js';
import { SHARED_DIR, hasShared } from '../helpers/corpus.js';

type View = 'block100' | 'block300' | 'graph';
/** Macro F1 and per-category F1 floors (percent) per set and view. */
type Floors = Record<View, { macro: number } & Partial<Record<Category, number>>>;

const HELDOUT = resolve(__dirname, 'heldout');
const SETS: { name: string; dir: string; floors: Floors; logsInShared?: boolean }[] = [
  {
    name: 'realgraph',
    dir: join(SHARED_DIR, 'bench', 'realgraph'),
    floors: {
      // Measured after the second decision and error pass (s7b-graphdec2): block <= 300 macro 63.8%,
      // done 60.8, pending 67.5, decisions 38.4, files 94.0, errors 55.6; graph macro 65.9, decisions
      // 40.9, errors 58.3; block <= 100 macro 49.1, errors 37.8. Lowered at <= 100 with a reason:
      // done (42.0 -> 40.5), decisions (25.5 -> 23.8) and files (90.0 -> 88.2) lose room to the
      // problems met and settled, which now weigh in the block as choices do (errors 17.5 -> 37.8,
      // macro 45.6 -> 49.1); at <= 300 done fell 61.2 -> 60.8 and files 94.3 -> 94.0 the same way.
      // Decisions (s8-decide, decision-rules.ts): block <= 300 38.4 -> 50.9, graph 40.9 -> 50.3, block <= 100
      // 23.8 -> 28.2; macro 63.8 -> 66.6 (<= 300), 65.9 -> 68.1 (graph), 49.1 -> 50.4 (<= 100), others unchanged.
      // Raised after the work rules (s8-tasks): block <= 300 macro 66.0, done 65.3, errors 60.4; graph
      // macro 68.1, done 66.7, errors 62.4; block <= 100 macro 50.1, done 41.1, errors 41.7 (done at
      // <= 100 moves by a task as problems met take or leave its room: 41.1-42.5 while these rules were made).
      // Both merged (session 8): block <= 300 macro 69.0 (done 65.3, pending 67.5, decisions 51.5, files 94.0,
      // errors 60.7); graph 70.3; block <= 100 51.2 (done 41.1, decisions 28.2, errors 41.8).
      // s8-graph3: files named relative to the project folder, a plan's manual checks pending, success
      // reports and phrase-only problems no error, a reply's one-line report no record, a goal that only
      // reported a problem no done task, a choice's sentence tail no choice: block <= 300 macro 69.0 -> 71.5
      // (done 68.2, pending 73.0, decisions 52.0, files 95.3, errors 62.7); graph 70.3 -> 72.1 (done 69.0,
      // pending 73.0, decisions 52.1, errors 63.3); block <= 100 51.2 -> 53.0 (done 43.9, pending 47.6, errors
      // 43.5). Files at <= 100 lowered 88.2 -> 87.3 with a reason: entire-26dcd's open manual check takes the
      // room of 4 files.
      block100: { macro: 52.5, completed: 43.4, pending: 47.1, decisions: 27.7, files: 86.8, errors: 43 },
      block300: { macro: 71, completed: 67.7, pending: 72.5, decisions: 51.5, files: 94.8, errors: 62.2 },
      graph: { macro: 71.6, completed: 68.5, pending: 72.5, decisions: 51.6, files: 97.5, errors: 62.8 },
    },
  },
  {
    name: 'tokenmizer21',
    dir: join(SHARED_DIR, 'bench', 'tokenmizer21', 'claude_jsonl'),
    floors: { block100: { macro: 56 }, block300: { macro: 55.5 }, graph: { macro: 56 } },
  },
  { name: 'heldout', dir: HELDOUT, floors: { block100: { macro: 66.5 }, block300: { macro: 67 }, graph: { macro: 65 } } },
  { name: 'heldout/blind', dir: join(HELDOUT, 'blind'), floors: { block100: { macro: 54.5 }, block300: { macro: 53.5 }, graph: { macro: 52.5 } } },
  { name: 'heldout/fresh', dir: join(HELDOUT, 'fresh'), floors: { block100: { macro: 57 }, block300: { macro: 60.5 }, graph: { macro: 57.5 } } },
  {
    // Today's client (2.1.50-2.1.227), 6 logs of ../shared/corpus/claude-code-recent named by `source`.
    // First score (before tuning) block <= 300 32.7%; after the recent rules 45.7% (done 38.8,
    // pending 61.9, decisions 8.3, files 92.8, errors 34.0); block <= 100 39.4%, graph 46.5%.
    // A development set (tuned on), not held out: it lives under test/graph/dev.
    name: 'dev/recent-dev',
    dir: resolve(__dirname, 'dev', 'recent-dev'),
    logsInShared: true,
    floors: {
      // Raised after the work rules (s8-tasks): block <= 300 macro 48.5, done 40.6, errors 44.4.
      // s8-graph3: success reports no problem: block <= 100 macro 41.2 -> 42.9 (errors 23.6 -> 31.9).
      block100: { macro: 42.4, completed: 31.1, pending: 61.5, decisions: 8, files: 86.4, errors: 31.4 },
      // completed 38.8 -> 37.4 once the settled problems of the decision and error rules weigh more in the block.
      // Decisions 8.3 -> 22.2 (<= 300) and 9.7 -> 25.0 (graph) with decision-rules.ts (s8-decide).
      // Both merged (session 8): block <= 300 52.1 (done 43.2, decisions 22.2, errors 44.4), graph 52.8.
      block300: { macro: 51.6, completed: 42.7, pending: 61.5, decisions: 21.7, files: 92.3, errors: 43.9 },
      graph: { macro: 52.3, completed: 41.4, pending: 61.5, decisions: 24.5, files: 94.1, errors: 43.9 },
    },
  },
  {
    // A second development set: 3 logs of PackmindHub/context-evaluator (2.1.5x). First score, before
    // any rule was changed for it: block <= 300 37.1% (decisions 0.0), graph 37.1%, block <= 100 34.6%.
    // After decision-rules.ts (s8-decide; tuned with it in view): decisions 36.7% (<= 300 and graph), macro 45.3%.
    name: 'dev/recent-dev2a',
    dir: resolve(__dirname, 'dev', 'recent-dev2a'),
    logsInShared: true,
    floors: {
      // With the work rules of s8-tasks too (never tuned on this set): errors 11.1 -> 48.9 (<= 300), macro 54.2.
      // s8-graph3 (tuned on this set): a plan's manual checks pending 0 -> 80.0 (<= 300), success reports no
      // problem: errors 48.9 -> 53.3; block <= 300 macro 54.2 -> 60.4, graph 55.5 -> 61.8, block <= 100 43.9 -> 48.4.
      block100: { macro: 47.9, completed: 35.6, pending: 66.2, files: 99.5, errors: 52.8 },
      block300: { macro: 59.9, completed: 47.5, pending: 79.5, decisions: 36.2, files: 99.5, errors: 52.8 },
      graph: { macro: 61.3, completed: 47.5, pending: 79.5, decisions: 36.2, files: 99.5, errors: 59.5 },
    },
  },
  {
    // 3 more logs of ../shared/corpus/claude-code-recent, annotated for the work rules (s8-tasks).
    // First score (before any rule was changed for it): block <= 300 42.8% (done 55.6, pending 0,
    // errors 22.2); after: 51.1% (pending 66.7, errors 37.8). A development set, not held out.
    name: 'dev/recent-dev2b',
    dir: resolve(__dirname, 'dev', 'recent-dev2b'),
    logsInShared: true,
    floors: {
      // With decision-rules.ts of s8-decide too (never tuned on this set): decisions 0 -> 22.2 (<= 300), macro 56.7.
      block100: { macro: 49.5, completed: 48.4, pending: 66.2, files: 99.5, errors: 39.5 },
      block300: { macro: 56.2, completed: 55.1, pending: 66.2, decisions: 21.7, files: 99.5, errors: 37.3 },
      graph: { macro: 58.2, completed: 55.1, pending: 66.2, decisions: 21.7, files: 99.5, errors: 45.2 },
    },
  },
];

function sessionsOf(dir: string): { log: string; truth: Truth }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.truth.json'))
    .sort()
    .map((f) => {
      const data = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const beside = join(dir, f.replace(/\.truth\.json$/, '.jsonl'));
      // `source` is relative to the shared folder: two levels above a set kept there, else ../shared.
      const shared = typeof data.source === 'string' ? [resolve(dir, '..', '..', data.source), join(SHARED_DIR, data.source)].find((p) => existsSync(p)) : undefined;
      return { log: existsSync(beside) ? beside : (shared ?? ''), truth: data.ground_truth as Truth };
    })
    .filter((s) => existsSync(s.log));
}

describe('graph score floors (memorybench F1)', () => {
  for (const set of SETS) {
    it.skipIf(set.dir.startsWith(SHARED_DIR) || set.logsInShared ? !hasShared(set.logsInShared ? SHARED_DIR : set.dir) : !existsSync(set.dir))(
      `${set.name}: no figure below its floor`,
      async () => {
        const scores: Record<View, SessionScore[]> = { block100: [], block300: [], graph: [] };
        for (const { log, truth } of sessionsOf(set.dir)) {
          const graph = buildGraph(await openSession(log));
          scores.block100.push(scoreSession(blockItems(buildResume(graph, { budget: 100 })), truth));
          scores.block300.push(scoreSession(blockItems(buildResume(graph, { budget: 300 })), truth));
          scores.graph.push(scoreSession(graphItems(graph), truth));
        }
        expect(scores.graph.length).toBeGreaterThan(0);
        const below: string[] = [];
        for (const view of Object.keys(scores) as View[]) {
          const result = scoreSet(scores[view]);
          const floors = set.floors[view];
          if (result.macroF1 * 100 < floors.macro) below.push(`${view} macro ${(result.macroF1 * 100).toFixed(1)} < ${floors.macro}`);
          for (const c of CATEGORIES) {
            const floor = floors[c];
            if (floor !== undefined && result.categories[c].f1 * 100 < floor) below.push(`${view} ${c} ${(result.categories[c].f1 * 100).toFixed(1)} < ${floor}`);
          }
        }
        expect(below).toEqual([]);
      },
      120_000,
    );
  }
});
