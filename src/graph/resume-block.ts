// The resume block: a session graph serialised into a few lines under a hard token budget.
// Sections fill in rounds (one item per section per round, most important first), so every
// section gets its share; an item that does not fit whole is left out, never cut.

import { countTokens } from '../tokens/counter.js';
import { contentWords, sameThing, wordOverlap } from './labels.js';
import { isPath } from './mentions.js';
import type { GraphNode, SessionGraph } from './model.js';

export type ResumeTier = 'critical' | 'standard' | 'full';
export const TIER_BUDGETS: Record<ResumeTier, number> = { critical: 100, standard: 300, full: 600 };

export const SECTION_NAMES = ['goal', 'inProgress', 'pending', 'errors', 'done', 'decisions', 'files', 'env', 'lastAsk'] as const;
export type SectionName = (typeof SECTION_NAMES)[number];
export type ResumeSections = Record<SectionName, string[]>;

export interface ResumeOptions {
  tier?: ResumeTier;
  /** Overrides the tier's budget (tokens). */
  budget?: number;
  /** Token counter; o200k_base by default. */
  count?: (text: string) => number;
}

export interface ResumeBlock {
  text: string;
  tokens: number;
  tier: ResumeTier;
  budget: number;
  /** The labels each section shows, in the order shown. */
  sections: ResumeSections;
}

interface Item {
  label: string;
  /** The label as rendered (with a few words of why at the larger tiers). */
  text: string;
  /** 1: what the user asked for, explicit decisions, changed files; 2: details and implicit facts. */
  level: 1 | 2;
}

const HEADERS: Record<SectionName, string> = {
  goal: 'Goal',
  inProgress: 'Doing',
  pending: 'Todo',
  errors: 'Open errors',
  done: 'Done',
  decisions: 'Decided',
  files: 'Files',
  env: 'Env',
  lastAsk: 'Last ask',
};

const ROUND_TOKENS = 4;

/** Sections that share the budget round by round; env and the last ask get what is left. */
// The order a round visits sections: what is open, what was decided, where, then what is done.
const CORE: SectionName[] = ['goal', 'inProgress', 'pending', 'errors', 'decisions', 'files', 'done'];
const TAIL: SectionName[] = ['env', 'lastAsk'];

export function tierForBudget(budget: number): ResumeTier {
  return budget <= TIER_BUDGETS.critical ? 'critical' : budget <= TIER_BUDGETS.standard ? 'standard' : 'full';
}

export function buildResume(graph: SessionGraph, options: ResumeOptions = {}): ResumeBlock {
  const tier = options.tier ?? (options.budget !== undefined ? tierForBudget(options.budget) : 'standard');
  const budget = options.budget ?? TIER_BUDGETS[tier];
  const count = options.count ?? countTokens;
  const candidates = resumeCandidates(graph, tier);
  const chosen = Object.fromEntries(SECTION_NAMES.map((s) => [s, [] as Item[]])) as Record<SectionName, Item[]>;
  let text = '';
  const tryAdd = (section: SectionName, item: Item): boolean => {
    // An item that says nothing the section does not say already is left out.
    if (chosen[section].some((other) => restates(item.text, other.text))) return false;
    chosen[section].push(item);
    const next = render(chosen);
    if (count(next) <= budget) {
      text = next;
      return true;
    }
    chosen[section].pop();
    return false;
  };
  // Each round every section may add items worth ROUND_TOKENS: a section of short items (decisions)
  // is not starved by one of long ones (paths), and each gets its share of the budget.
  const fill = (sections: SectionName[], level: 1 | 2) => {
    const lists = Object.fromEntries(sections.map((s) => [s, candidates[s].filter((i) => i.level === level)])) as Record<SectionName, Item[]>;
    const next = Object.fromEntries(sections.map((s) => [s, 0])) as Record<SectionName, number>;
    for (let progressed = true; progressed; ) {
      progressed = false;
      for (const section of sections) {
        const list = lists[section];
        let spent = 0;
        // Skip what does not fit; a later, shorter item of the section may.
        while (next[section] < list.length && spent < ROUND_TOKENS) {
          const item = list[next[section]++];
          progressed = true;
          const before = count(text);
          if (tryAdd(section, item)) spent += count(text) - before;
        }
      }
    }
  };
  fill(CORE, 1);
  fill(CORE, 2);
  fill(TAIL, 1);
  fill(TAIL, 2);
  const sections = Object.fromEntries(SECTION_NAMES.map((s) => [s, chosen[s].map((i) => i.label)])) as ResumeSections;
  return { text, tokens: text === '' ? 0 : count(text), tier, budget, sections };
}

function render(chosen: Record<SectionName, Item[]>): string {
  const lines: string[] = [];
  for (const section of SECTION_NAMES) {
    const items = chosen[section];
    if (items.length === 0) continue;
    // Paths are listed like a shell lists them, space-separated, unless one holds a space.
    const separator = section === 'files' ? (items.some((i) => i.text.includes(' ')) ? ', ' : ' ') : '; ';
    lines.push(`${HEADERS[section]}: ${items.map((i) => i.text).join(separator)}`);
  }
  return lines.join('\n');
}

/** Every item each section could show, most important first. */
export function resumeCandidates(graph: SessionGraph, tier: ResumeTier): Record<SectionName, Item[]> {
  const withWhy = tier !== 'critical';
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const partOfTask = new Set<string>();
  const superseded = new Set<string>();
  const beingFixed = new Set<string>();
  for (const edge of graph.edges) {
    const to = byId.get(edge.to);
    if (edge.type === 'PART_OF' && to?.type === 'TASK') partOfTask.add(edge.from);
    if (edge.type === 'SUPERSEDES') superseded.add(edge.to);
    if (edge.type === 'FIXES' && byId.get(edge.from)?.status === 'in_progress') beingFixed.add(edge.to);
  }
  // A task the user asked for (or one of the session's own todo list) comes before a detail of one.
  const topLevel = (n: GraphNode) => !partOfTask.has(n.id);
  const rank = (a: GraphNode, b: GraphNode) =>
    Number(topLevel(b)) - Number(topLevel(a)) || b.importance - a.importance || b.confidence - a.confidence || a.firstTurn - b.firstTurn || cmp(a.id, b.id);
  const of = (type: GraphNode['type'], keep: (n: GraphNode) => boolean) => graph.nodes.filter((n) => n.type === type && keep(n)).sort(rank);
  const item = (n: GraphNode, level: 1 | 2, text = n.label): Item => ({ label: n.label, text, level });
  // The session's own task list (TodoWrite, TaskCreate) is as first-hand as what the user asked for.
  const taskLevel = (n: GraphNode) => (topLevel(n) || n.confidence >= 1 ? 1 : 2);

  const doing = of('TASK', (n) => n.status === 'in_progress');
  const todo = of('TASK', (n) => n.status === 'pending');
  const done = of('TASK', (n) => n.status === 'completed');
  const decisions = of('DECISION', (n) => !superseded.has(n.id)).sort((a, b) => Number(b.confidence >= EXPLICIT) - Number(a.confidence >= EXPLICIT) || rank(a, b));
  const files = of('FILE', () => true).sort((a, b) => Number(b.status === 'modified') - Number(a.status === 'modified') || rank(a, b));
  const errors = of('ERROR', (n) => n.status === 'failed' && !beingFixed.has(n.id));
  const goal = graph.nodes.find((n) => n.type === 'GOAL');
  const env = [...of('PROJECT', () => true), ...of('ENVIRONMENT', () => true), ...of('DEPENDENCY', () => true)];
  const shown = [...doing, ...todo, ...done];
  const lastAsk =
    graph.lastAsk && !shown.some((t) => sameThing(t.label, graph.lastAsk!) || wordOverlap(t.label, graph.lastAsk!) >= 0.9) && (!goal || goal.label !== graph.lastAsk)
      ? [{ label: graph.lastAsk, text: graph.lastAsk, level: 1 as const }]
      : [];
  const compact = tier === 'critical';
  const task = (n: GraphNode): Item => (compact ? compactTask(n.label) : n.label) === n.label ? item(n, taskLevel(n)) : { label: compactTask(n.label), text: compactTask(n.label), level: taskLevel(n) };
  return {
    goal: goal ? [compact ? { label: goalHead(goal.label), text: goalHead(goal.label), level: 1 } : item(goal, 1)] : [],
    inProgress: doing.map(task),
    pending: todo.map(task),
    errors: errors.map((n) => item(n, n.confidence >= 0.9 ? 1 : 2)),
    done: done.map((n) => (withWhy && n.detail && /passed|failed/.test(n.detail) ? item(n, taskLevel(n), `${n.label} (${n.detail})`) : task(n))),
    decisions: decisions.map((n) => item(n, n.confidence >= EXPLICIT ? 1 : 2, withWhy && n.detail ? `${n.label} (${n.detail})` : n.label)),
    files: files.map((n) => item(n, n.status === 'modified' ? 1 : 2, withWhy && n.detail === 'created' ? `${n.label} (new)` : n.label)),
    env: env.map((n) => item(n, n.type === 'PROJECT' ? 1 : 2, withWhy && n.detail && n.type !== 'DEPENDENCY' ? `${n.label} (${n.detail})` : n.label)),
    lastAsk,
  };
}

/** Decisions stated as such (not inferred from the tools a report names). */
const EXPLICIT = 0.75;

/**
 * At the critical tier a task says only what was made: no verb of making ("Add rate limiting" ->
 * "rate limiting"), no file it went into (the Files line has it), no tool it was made with (the
 * Decided line has it), no aside after a dash.
 */
export function compactTask(label: string): string {
  let text = label.replace(/\s+[—–]\s+.*$|\s+\([^)]*\)$/, '');
  text = text.replace(/\s+(?:using|via)\s+\S.*$/i, '').replace(/\s+with\s+(?=[A-Z]|\S*[A-Z])[^,;]*$/, '');
  const place = /^(.+?)\s+(?:in|to|into|inside|under)\s+(\S+)$/.exec(text);
  if (place && isPath(place[2])) text = place[1];
  const m = /^(?:add|create|write|build|implement|set up|setup|make)\s+(?:a |an |the )?(.+)$/i.exec(text);
  if (m && !/^(?:to|for|in|on|at|with|from|into|it|this|that)\b/i.test(m[1])) text = m[1];
  return text.trim() === '' ? label : text;
}

/** At the critical tier the goal is its first clause: "Production down — 500 errors ..." -> "Production down". */
export function goalHead(label: string): string {
  const m = /^(.+?)(?:\s+[—–-]\s+|;\s+|:\s+)(.*)$/.exec(label);
  if (!m || m[1].split(/\s+/).length < 2) return label;
  // "Implement the following plan: Consolidate logging ...": the head only points at the rest.
  if (/\b(?:following|below|this|these|plan|steps|instructions|request|task|spec)$/i.test(m[1])) return goalHead(m[2]) || label;
  return m[1];
}

/** True when `text` adds nothing to `shown`: the same words, or only some of them. */
function restates(text: string, shown: string): boolean {
  if (text.toLowerCase() === shown.toLowerCase()) return true;
  const words = contentWords(text);
  if (words.size === 0) return false;
  const other = contentWords(shown);
  for (const w of words) if (!other.has(w)) return false;
  return true;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
