import { fileURLToPath } from 'node:url';
// `npm run bench -- graph [dir...] [--verbose] [--json]`: extraction quality of the session graph
// and its resume blocks, scored with memorybench's F1 (src/graph/memory-score.ts): per category
// (done tasks, pending tasks, decisions, files, errors) precision, recall and F1, and the macro F1
// (mean over sessions of the mean F1 over the categories a session has truth or output in).
// Scored three ways: resume blocks of <= 100 and <= 300 o200k tokens, and the whole graph.
//
// A folder holds `<name>.truth.json` files, with the log beside each (`<name>.jsonl`) or named by
// the truth's `source` (relative to the folder two levels up, as ../shared/bench/realgraph does).
// Without folders: realgraph, tokenmizer21 and every held-out set of test/graph/heldout.

import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSession } from '../dist/session/session.js';
import { buildGraph } from '../dist/graph/build-graph.js';
import { buildResume } from '../dist/graph/resume-block.js';
import { CATEGORIES, blockItems, graphItems, scoreSession, scoreSet } from '../dist/graph/memory-score.js';

export const DEFAULT_SETS = [
  '../shared/bench/realgraph',
  '../shared/bench/tokenmizer21/claude_jsonl',
  'test/graph/heldout',
  'test/graph/heldout/blind',
  'test/graph/heldout/fresh',
  'test/graph/dev/recent-dev',
  'test/graph/dev/recent-dev2a',
  'test/graph/dev/recent-dev2b',
];

export const VIEWS = [
  ['block <=100', (graph) => blockItems(buildResume(graph, { budget: 100 }))],
  ['block <=300', (graph) => blockItems(buildResume(graph, { budget: 300 }))],
  ['graph', (graph) => graphItems(graph)],
];

/** The sessions of a folder: [name, log path, truth]. */
export function benchSessions(dir) {
  const out = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.truth.json'))
    .sort()) {
    const name = file.replace(/\.truth\.json$/, '');
    const truth = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const beside = join(dir, `${name}.jsonl`);
    // `source` is relative to the shared folder: two levels above a set kept there, or ../shared beside the checkout.
    const shared = [resolve(dir, '..', '..'), resolve(fileURLToPath(new URL('../../shared', import.meta.url)))];
    const log = existsSync(beside) ? beside : truth.source ? shared.map((root) => resolve(root, truth.source)).find((p) => existsSync(p)) : undefined;
    if (log && existsSync(log)) out.push([name, log, truth.ground_truth]);
  }
  return out;
}

/** Scores of every view of a folder's sessions. */
export async function scoreDir(dir, { verbose = false } = {}) {
  const sessions = benchSessions(dir);
  const perView = Object.fromEntries(VIEWS.map(([view]) => [view, []]));
  let ms = 0;
  for (const [name, log, truth] of sessions) {
    const session = await openSession(log);
    const t = performance.now();
    const graph = buildGraph(session);
    ms += performance.now() - t;
    for (const [view, items] of VIEWS) {
      const output = items(graph);
      const score = scoreSession(output, truth);
      perView[view].push({ name, ...score });
      if (verbose && view === 'block <=300') printSession(name, buildResume(graph, { budget: 300 }).text, score);
    }
  }
  return {
    dir,
    sessions: sessions.length,
    msPerSession: ms / Math.max(1, sessions.length),
    views: Object.fromEntries(VIEWS.map(([view]) => [view, { ...scoreSet(perView[view]), perSession: perView[view] }])),
  };
}

function printSession(name, text, score) {
  console.log(`\n== ${name}  F1 ${pct(score.f1)}\n${text}`);
  for (const [c, s] of Object.entries(score.categories)) {
    console.log(`  ${c.padEnd(9)} P ${pct(s.precision)} R ${pct(s.recall)}`);
    for (const m of s.missed) console.log(`    - missed: ${m}`);
    for (const m of s.spurious) console.log(`    + spurious: ${m}`);
  }
}

function pct(x) {
  return `${(x * 100).toFixed(1)}%`.padStart(6);
}

function report(result) {
  console.log(`${result.sessions} sessions in ${result.dir}; graph extraction ${result.msPerSession.toFixed(1)} ms/session`);
  console.log(`${''.padEnd(12)} ${'macro F1'.padStart(8)}  ${CATEGORIES.map((c) => `${c} F1 (P/R)`.padEnd(24)).join('')}`);
  for (const [view, s] of Object.entries(result.views)) {
    const cells = CATEGORIES.map((c) => {
      const k = s.categories[c];
      if (k.sessions === 0) return 'n/a'.padStart(6).padEnd(24);
      return `${pct(k.f1)} (${pct(k.precision).trim()}/${pct(k.recall).trim()})`.padEnd(24);
    });
    console.log(`${view.padEnd(12)} ${pct(s.macroF1).padStart(8)}  ${cells.join('')}`);
  }
}

async function benchGraph(args) {
  const verbose = args.includes('--verbose');
  const json = args.includes('--json');
  let dirs = args.filter((a) => !a.startsWith('--'));
  if (dirs.length === 0) dirs = DEFAULT_SETS.filter((d) => existsSync(d));
  const bad = dirs.filter((d) => !existsSync(d) || !statSync(d).isDirectory() || benchSessions(d).length === 0);
  if (bad.length) throw new Error(`no <name>.truth.json with its log in ${bad.join(', ')} (usage: npm run bench -- graph [dir...] [--verbose] [--json])`);
  const results = [];
  for (const [i, dir] of dirs.entries()) {
    const result = await scoreDir(dir, { verbose: verbose && !json });
    results.push(result);
    if (json) continue;
    if (i > 0) console.log('');
    report(result);
  }
  if (json) {
    for (const r of results) for (const v of Object.values(r.views)) for (const s of v.perSession) delete s.categories;
    console.log(JSON.stringify(results, null, 2));
  } else
    console.log(
      '\nmemorybench F1: a truth item is found when an output item holds 60% of its words; category figures are means over the sessions with truth or output in it. Graph files: those changed.',
    );
}

export default benchGraph;
