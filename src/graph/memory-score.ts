// memorybench's F1, the one scorer of every graph benchmark set (realgraph, tokenmizer21, cmv's
// held-out sets): a truth item is found when an output item holds 60% of its words.

import type { SessionGraph } from './model.js';
import type { ResumeBlock } from './resume-block.js';
import { goalIsTask } from './resume-items.js';

export const CATEGORIES = ['completed', 'pending', 'decisions', 'files', 'errors'] as const;
export type Category = (typeof CATEGORIES)[number];
export type Items = Record<Category, string[]>;

export interface Truth {
  completed_tasks?: string[];
  pending_tasks?: string[];
  decisions?: string[];
  files?: string[];
  errors?: string[];
}

const STOPWORDS = new Set('the a an and or but in on at to for of with is are was were be been it this that we our i you they from by as'.split(' '));
const COVER = 0.6;

/** memorybench's words: runs of [a-z0-9][a-z0-9._/-]*, no one-letter words or stopwords; `api/auth.py` also gives api, auth, py. */
export function scoreWords(text: string): Set<string> {
  const out = new Set<string>();
  const add = (w: string) => {
    if (w.length > 1 && !STOPWORDS.has(w)) out.add(w);
  };
  for (const word of text.toLowerCase().match(/[a-z0-9][a-z0-9._/-]*/g) ?? []) {
    add(word);
    if (/[/.]/.test(word)) for (const part of word.split(/[/.]/)) add(part);
  }
  return out;
}

/** True when `output` holds at least 60% of `truth`'s words. */
export function covers(output: string, truth: string): boolean {
  const t = scoreWords(truth);
  if (t.size === 0) return false;
  const o = scoreWords(output);
  let hit = 0;
  for (const w of t) if (o.has(w)) hit++;
  return hit / t.size >= COVER;
}

export interface CategoryScore {
  precision: number;
  recall: number;
  f1: number;
  /** Truth items no output item covers; output items that cover none. */
  missed: string[];
  spurious: string[];
}

export function scoreCategory(output: string[], truth: string[]): CategoryScore {
  const found = truth.filter((t) => output.some((o) => covers(o, t)));
  const useful = output.filter((o) => truth.some((t) => covers(o, t)));
  const precision = output.length ? useful.length / output.length : 0;
  const recall = truth.length ? found.length / truth.length : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, missed: truth.filter((t) => !found.includes(t)), spurious: output.filter((o) => !useful.includes(o)) };
}

export interface SessionScore {
  /** Mean F1 over the categories with truth or output. */
  f1: number;
  categories: Partial<Record<Category, CategoryScore>>;
}

export function truthItems(truth: Truth): Items {
  return {
    completed: truth.completed_tasks ?? [],
    pending: truth.pending_tasks ?? [],
    decisions: truth.decisions ?? [],
    files: truth.files ?? [],
    errors: truth.errors ?? [],
  };
}

/** The truth's key of each category: a set whose truth has no key for a category does not annotate it. */
const TRUTH_KEY: Record<Category, keyof Truth> = { completed: 'completed_tasks', pending: 'pending_tasks', decisions: 'decisions', files: 'files', errors: 'errors' };

export function scoreSession(output: Items, truth: Truth): SessionScore {
  const expected = truthItems(truth);
  const categories: SessionScore['categories'] = {};
  for (const c of CATEGORIES) {
    if (truth[TRUTH_KEY[c]] === undefined) continue;
    if (output[c].length === 0 && expected[c].length === 0) continue;
    categories[c] = scoreCategory(output[c], expected[c]);
  }
  const f1s = Object.values(categories).map((s) => s!.f1);
  return { f1: f1s.length ? f1s.reduce((a, b) => a + b, 0) / f1s.length : 0, categories };
}

export interface SetScore {
  sessions: number;
  macroF1: number;
  /** Per category, means over the sessions where it has truth or output. */
  categories: Record<Category, { precision: number; recall: number; f1: number; sessions: number }>;
}

export function scoreSet(scores: SessionScore[]): SetScore {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const categories = {} as SetScore['categories'];
  for (const c of CATEGORIES) {
    const present = scores.map((s) => s.categories[c]).filter((s): s is CategoryScore => s !== undefined);
    categories[c] = { precision: mean(present.map((s) => s.precision)), recall: mean(present.map((s) => s.recall)), f1: mean(present.map((s) => s.f1)), sessions: present.length };
  }
  return { sessions: scores.length, macroF1: mean(scores.map((s) => s.f1)), categories };
}

/**
 * What the whole graph lists, category by category (a goal the session carried out is a done task,
 * unless the log records that work item by item, then it is their heading, or it reported a problem).
 */
export function graphItems(graph: SessionGraph): Items {
  const of = (type: string, keep: (status: string | null) => boolean = () => true) => graph.nodes.filter((n) => n.type === type && keep(n.status)).map((n) => n.label);
  const goal = graph.nodes.find((n) => n.type === 'GOAL');
  const goalDone = goal && goalIsTask(graph, goal) ? of('GOAL', (s) => s === 'completed') : [];
  return {
    completed: [...goalDone, ...of('TASK', (s) => s === 'completed')],
    pending: of('TASK', (s) => s === 'pending' || s === 'in_progress'),
    decisions: of('DECISION'),
    files: of('FILE', (s) => s === 'modified'),
    errors: of('ERROR'),
  };
}

/** What a resume block lists, item by item, as its `--json` gives it. */
export function blockItems(block: ResumeBlock): Items {
  const s = block.sections;
  return {
    completed: s.done,
    pending: [...s.inProgress, ...s.pending],
    decisions: s.decisions,
    files: s.files,
    errors: [...s.errors, ...s.fixed],
  };
}
