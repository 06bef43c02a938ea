// `npm run bench -- graph <dir>... [--verbose]`: extraction quality of the session graph and its
// resume blocks on folders of sessions with `<name>.truth.json` ground truth, each folder scored
// apart (the TokenMizer 21 and cmv's own held-out sessions in test/graph/heldout, say)
// ({ground_truth: {completed_tasks, pending_tasks, decisions, files}}), scored with TokenMizer's
// metric exactly as its code computes it (../shared/bench/tokenmizer21/README.md):
//   - labels match when, lowercased, either contains the other, or the \w{3,} word sets share at
//     least half of the smaller set;
//   - recall = ground-truth labels matched by any extracted label / ground-truth labels; precision
//     = extracted labels matching any ground-truth label / extracted labels; a session with either
//     list empty scores 0 (so mean file recall is capped by sessions without files); per-session
//     values rounded to 3 places, then averaged.
// Scored twice: the whole graph (no budget), and the resume block's sections at <= 78 and
// <= 100 tokens, counted with o200k_base (cmv's tokenizer) and with cl100k_base.

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { openSession } from '../dist/session/session.js';
import { buildGraph } from '../dist/graph/build-graph.js';
import { buildResume } from '../dist/graph/resume-block.js';
import { countTokens } from '../dist/tokens/counter.js';

const require = createRequire(import.meta.url);
const PUBLISHED = { task: 0.508, decision: 0.466, file: 0.587, tokens: 78 };

function cl100kCounter() {
  const { Tiktoken } = require('js-tiktoken/lite');
  const ranks = require('js-tiktoken/ranks/cl100k_base');
  const encoder = new Tiktoken(ranks.default ?? ranks);
  return (text) => encoder.encode(text).length;
}

/** TokenMizer's `_fuzzy_match`. */
export function fuzzyMatch(a, b) {
  a = a.toLowerCase();
  b = b.toLowerCase();
  if (a.includes(b) || b.includes(a)) return true;
  const words = (t) => new Set(t.match(/[\p{L}\p{N}_]{3,}/gu) ?? []);
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return false;
  const shorter = wa.size <= wb.size ? wa : wb;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / shorter.size >= 0.5;
}

/** TokenMizer's `precision_recall_v2`: [precision, recall], 0 when either side is empty. */
export function precisionRecall(extracted, expected) {
  const ex = [...new Set(extracted.map((e) => e.toLowerCase()))];
  if (ex.length === 0 || expected.length === 0) return [0, 0];
  const p = ex.filter((e) => expected.some((g) => fuzzyMatch(e, g))).length / ex.length;
  const r = expected.filter((g) => ex.some((e) => fuzzyMatch(e, g))).length / expected.length;
  return [round3(p), round3(r)];
}

function round3(n) {
  return Math.round(n * 1000) / 1000;
}

function graphLabels(graph) {
  const of = (type, keep = () => true) => graph.nodes.filter((n) => n.type === type && keep(n)).map((n) => n.label);
  return {
    // A goal the session carried out is a done task too (the resume block counts it so).
    completed: [...of('GOAL', (n) => n.status === 'completed'), ...of('TASK', (n) => n.status === 'completed')],
    pending: [...of('TASK', (n) => n.status === 'pending' || n.status === 'in_progress'), ...of('ERROR', (n) => n.status === 'failed')],
    decisions: of('DECISION'),
    files: of('FILE'),
  };
}

function resumeLabels(block) {
  const s = block.sections;
  return { completed: s.done, pending: [...s.inProgress, ...s.pending, ...s.errors], decisions: s.decisions, files: s.files };
}

function score(labels, truth) {
  const [tp, tr] = precisionRecall(labels.completed, truth.completed_tasks);
  const [dp, dr] = precisionRecall(labels.decisions, truth.decisions);
  const [fp, fr] = precisionRecall(labels.files, truth.files);
  const [pp, pr] = precisionRecall(labels.pending, truth.pending_tasks ?? []);
  return { tp, tr, dp, dr, fp, fr, pp, pr, hasFiles: truth.files.length > 0, hasPending: (truth.pending_tasks ?? []).length > 0 };
}

function mean(values) {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

function f1(p, r) {
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

function pct(x) {
  return `${(x * 100).toFixed(1)}%`.padStart(6);
}

function summarise(name, scores) {
  const files = scores.filter((s) => s.hasFiles);
  const pending = scores.filter((s) => s.hasPending);
  const m = (k, list = scores) => mean(list.map((s) => s[k]));
  const t = [m('tp'), m('tr')];
  const d = [m('dp'), m('dr')];
  const f = [m('fp', files), m('fr', files)];
  return {
    name,
    line: `${name.padEnd(22)} task ${pct(t[1])} (P ${pct(t[0])} F1 ${pct(f1(...t))})  decision ${pct(d[1])} (P ${pct(d[0])} F1 ${pct(f1(...d))})  file ${pct(m('fr'))} all / ${pct(f[1])} of ${files.length} with files (P ${pct(f[0])})  pending ${pct(m('pr', pending))} of ${pending.length}  files complete ${files.filter((s) => s.fr === 1).length}/${files.length}`,
  };
}

async function benchGraph(args) {
  const verbose = args.includes('--verbose');
  const dirs = args.filter((a) => !a.startsWith('--'));
  if (dirs.length === 0 || dirs.some((d) => !existsSync(d))) {
    throw new Error('usage: npm run bench -- graph <dir with <name>.jsonl and <name>.truth.json>... [--verbose]  (each folder scored apart, e.g. ../shared/bench/tokenmizer21/claude_jsonl test/graph/heldout)');
  }
  for (const [i, dir] of dirs.entries()) {
    if (i > 0) console.log('');
    await benchDir(dir, verbose);
  }
}

async function benchDir(dir, verbose) {
  const names = readdirSync(dir).filter((f) => f.endsWith('.jsonl') && existsSync(join(dir, f.replace(/\.jsonl$/, '.truth.json')))).sort();
  if (names.length === 0) {
    const nested = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(dir, d.name));
    throw new Error(`no <name>.jsonl with a <name>.truth.json beside it in ${dir}${nested.length ? ` (try one of: ${nested.join(', ')})` : ''}`);
  }
  const cl100k = cl100kCounter();
  const budgets = [
    ['o200k <=78', 78, countTokens],
    ['cl100k <=78', 78, cl100k],
    ['o200k <=100', 100, countTokens],
    ['cl100k <=100', 100, cl100k],
  ];
  const rows = { graph: [], ...Object.fromEntries(budgets.map(([label]) => [label, []])) };
  const tokens = Object.fromEntries(budgets.map(([label]) => [label, []]));
  const quarterChars = [];
  let extractMs = 0;
  for (const file of names) {
    const name = basename(file, '.jsonl');
    const truth = JSON.parse(readFileSync(join(dir, `${name}.truth.json`), 'utf8')).ground_truth;
    const session = await openSession(join(dir, file));
    const t = performance.now();
    const graph = buildGraph(session);
    extractMs += performance.now() - t;
    rows.graph.push(score(graphLabels(graph), truth));
    for (const [label, budget, count] of budgets) {
      const block = buildResume(graph, { budget, count });
      rows[label].push(score(resumeLabels(block), truth));
      tokens[label].push(block.tokens);
      if (label === 'o200k <=78') {
        quarterChars.push(Math.floor(block.text.length / 4));
        if (verbose) {
          const s = rows[label].at(-1);
          console.log(`\n== ${name}  task ${s.tr} decision ${s.dr} file ${s.fr} pending ${s.pr}  (${block.tokens} o200k tokens)\n${block.text}`);
        }
      }
    }
  }
  console.log(`${names.length} sessions in ${dir}; graph extraction ${(extractMs / Math.max(1, names.length)).toFixed(2)} ms/session`);
  console.log(`TokenMizer published: task ${pct(PUBLISHED.task)}  decision ${pct(PUBLISHED.decision)}  file ${pct(PUBLISHED.file)}  at ~${PUBLISHED.tokens} tokens (len/4)`);
  console.log(summarise('graph (no budget)', rows.graph).line);
  for (const [label] of budgets) {
    console.log(`${summarise(`resume ${label}`, rows[label]).line}  mean ${mean(tokens[label]).toFixed(1)} / max ${Math.max(...tokens[label])} tokens`);
  }
  console.log(`resume o200k <=78 blocks: mean len/4 = ${mean(quarterChars).toFixed(1)} (the paper's token measure)`);
  console.log('F1 from mean precision and mean recall; file figures over sessions that have files; pending = in-progress + pending tasks + open errors.');
}

export default benchGraph;
