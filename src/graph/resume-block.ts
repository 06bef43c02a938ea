// The resume block: a session graph serialised into a few telegraphic lines under a hard token
// budget. Items go in by what they are worth per token; an item that does not fit whole is left out.

import { countTokens } from '../tokens/counter.js';
import { contentWords, denseLabel, sameThing, wordCount, wordOverlap } from './labels.js';
import { isPath } from './mentions.js';
import { fileList } from './file-list.js';
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
  /** The labels each section shows, in the order shown (files as full paths). */
  sections: ResumeSections;
}

interface Item {
  /** The label as shown, without its why. */
  label: string;
  /** The label as rendered (with a few words of why at the larger tiers). */
  text: string;
  /** 1: what the user asked for, explicit decisions, changed files; 2: details and implicit facts. */
  level: 1 | 2;
  /** A file the session created (listed apart at the larger tiers). */
  created?: boolean;
  /** The node shown, and the task it is a detail of. */
  id?: string;
  parent?: string;
}

const HEADERS: Record<SectionName, string> = {
  goal: 'Goal',
  inProgress: 'Doing',
  pending: 'Todo',
  errors: 'Broken',
  done: 'Done',
  decisions: 'Chosen',
  files: 'Files',
  env: 'Env',
  lastAsk: 'Last ask',
};

/**
 * What an item of each section is worth to whoever resumes: the goal above all, then open work,
 * what was done and decided and where, then the surroundings. Each further item of a section is
 * worth DECAY times the one before, so a section of cheap items does not crowd out the others.
 */
const WEIGHT: Record<SectionName, number> = { goal: 100, inProgress: 1, pending: 0.9, errors: 0.9, done: 0.8, decisions: 0.8, files: 0.6, env: 0.1, lastAsk: 0.2 };
const DETAIL = 0.5;
let LEVEL_2 = 0.5;
let DECAY = 0.8;
let FILE_DECAY = 0.8;
// TEMP tuning hook
if (process.env.CMV_W) { const o = JSON.parse(process.env.CMV_W); Object.assign(WEIGHT, o.w ?? {}); LEVEL_2 = o.l2 ?? LEVEL_2; DECAY = o.d ?? DECAY; FILE_DECAY = o.fd ?? FILE_DECAY; }

export function tierForBudget(budget: number): ResumeTier {
  return budget <= TIER_BUDGETS.critical ? 'critical' : budget <= TIER_BUDGETS.standard ? 'standard' : 'full';
}

export function buildResume(graph: SessionGraph, options: ResumeOptions = {}): ResumeBlock {
  const tier = options.tier ?? (options.budget !== undefined ? tierForBudget(options.budget) : 'standard');
  const budget = options.budget ?? TIER_BUDGETS[tier];
  const count = options.count ?? countTokens;
  const candidates = resumeCandidates(graph, tier);
  const chosen = Object.fromEntries(SECTION_NAMES.map((s) => [s, [] as Item[]])) as Record<SectionName, Item[]>;
  const next = Object.fromEntries(SECTION_NAMES.map((s) => [s, 0])) as Record<SectionName, number>;
  // Lines are tokenised apart (a newline always ends a piece), so an item's cost is its own line's growth.
  const lineTokens = Object.fromEntries(SECTION_NAMES.map((s) => [s, 0])) as Record<SectionName, number>;
  let text = '';
  let tokens = 0;
  const costOf = (section: SectionName, item: Item) => {
    const line = renderLine(section, [...chosen[section], item]);
    return count(line) - lineTokens[section] + (chosen[section].length === 0 && text !== '' ? 1 : 0);
  };
  for (;;) {
    let best: { section: SectionName; item: Item; score: number } | undefined;
    for (const section of SECTION_NAMES) {
      const list = candidates[section];
      while (next[section] < list.length) {
        const item = list[next[section]];
        const cost = costOf(section, item);
        // An item that repeats one shown, or cannot fit even now, never will: skip it.
        if (chosen[section].some((other) => restates(item.label, other.label)) || tokens + cost > budget) {
          next[section]++;
          continue;
        }
        // A detail of a task already shown says less than a task not yet shown.
        const detail = item.parent !== undefined && chosen[section].some((c) => c.id === item.parent) ? DETAIL : 1;
        const worth = WEIGHT[section] * (item.level === 1 ? 1 : LEVEL_2) * (section === 'files' ? FILE_DECAY : DECAY) ** chosen[section].length * detail;
        const score = worth / Math.max(1, cost);
        if (!best || score > best.score) best = { section, item, score };
        break;
      }
    }
    if (!best) break;
    next[best.section]++;
    chosen[best.section].push(best.item);
    const candidate = render(chosen);
    const total = count(candidate);
    if (total > budget) {
      chosen[best.section].pop();
      continue;
    }
    text = candidate;
    tokens = total;
    lineTokens[best.section] = count(renderLine(best.section, chosen[best.section]));
  }
  const sections = Object.fromEntries(SECTION_NAMES.map((s) => [s, chosen[s].map((i) => i.label)])) as ResumeSections;
  return { text, tokens: text === '' ? 0 : count(text), tier, budget, sections };
}

function render(chosen: Record<SectionName, Item[]>): string {
  return SECTION_NAMES.filter((s) => chosen[s].length > 0)
    .map((s) => renderLine(s, chosen[s]))
    .join('\n');
}

function renderLine(section: SectionName, items: Item[]): string {
  if (section !== 'files') return `${HEADERS[section]}: ${items.map((i) => i.text).join('; ')}`;
  // Paths share their folders ("api/{auth,models}.py"); files the session created come last.
  const old = items.filter((i) => !i.created).map((i) => i.label);
  const created = items.filter((i) => i.created).map((i) => i.label);
  const parts = [old.length ? fileList(old) : '', created.length ? `new: ${fileList(created)}` : ''].filter(Boolean);
  return `${HEADERS.files}: ${parts.join('; ')}`;
}

/** Every item each section could show: first-hand items first, each kind most important first. */
export function resumeCandidates(graph: SessionGraph, tier: ResumeTier): Record<SectionName, Item[]> {
  const withWhy = tier !== 'critical';
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const partOfTask = new Map<string, string>();
  const superseded = new Set<string>();
  const beingFixed = new Set<string>();
  for (const edge of graph.edges) {
    const to = byId.get(edge.to);
    if (edge.type === 'PART_OF' && to?.type === 'TASK' && !partOfTask.has(edge.from)) partOfTask.set(edge.from, edge.to);
    if (edge.type === 'SUPERSEDES') superseded.add(edge.to);
    if (edge.type === 'FIXES' && byId.get(edge.from)?.status === 'in_progress') beingFixed.add(edge.to);
  }
  // A task the user asked for (or one of the session's own todo list) comes before a detail of one.
  const topLevel = (n: GraphNode) => !partOfTask.has(n.id);
  const rank = (a: GraphNode, b: GraphNode) =>
    Number(topLevel(b)) - Number(topLevel(a)) || b.importance - a.importance || b.confidence - a.confidence || a.firstTurn - b.firstTurn || cmp(a.id, b.id);
  const of = (type: GraphNode['type'], keep: (n: GraphNode) => boolean) => graph.nodes.filter((n) => n.type === type && keep(n)).sort(rank);
  // The session's own task list (TodoWrite, TaskCreate) is as first-hand as what the user asked for.
  const taskLevel = (n: GraphNode) => (topLevel(n) || n.confidence >= 1 ? 1 : 2);
  const compact = tier === 'critical';
  const task = (n: GraphNode, detail?: string): Item => {
    const label = shortTask(n.label, compact);
    return { label, text: detail ? `${label} (${detail})` : label, level: taskLevel(n), id: n.id, parent: partOfTask.get(n.id) };
  };
  const plain = (n: GraphNode, level: 1 | 2, detail?: string): Item => {
    const label = denseLabel(n.label);
    return { label, text: detail ? `${label} (${detail})` : label, level };
  };

  const doing = of('TASK', (n) => n.status === 'in_progress');
  const todo = of('TASK', (n) => n.status === 'pending');
  const done = of('TASK', (n) => n.status === 'completed');
  const decisions = of('DECISION', (n) => !superseded.has(n.id));
  const files = of('FILE', () => true).sort((a, b) => Number(b.status === 'modified') - Number(a.status === 'modified') || rank(a, b));
  const errors = of('ERROR', (n) => n.status === 'failed' && !beingFixed.has(n.id));
  const goal = graph.nodes.find((n) => n.type === 'GOAL');
  const env = [...of('PROJECT', () => true), ...of('ENVIRONMENT', () => true), ...of('DEPENDENCY', () => true)];
  const shown = [...doing, ...todo, ...done];
  const lastAsk =
    graph.lastAsk && !shown.some((t) => sameThing(t.label, graph.lastAsk!) || wordOverlap(t.label, graph.lastAsk!) >= 0.9) && (!goal || goal.label !== graph.lastAsk)
      ? [{ label: graph.lastAsk, text: graph.lastAsk, level: 1 as const }]
      : [];
  const goalText = goal ? denseLabel(withoutAsking(compact ? goalHead(goal.label) : goal.label)) : '';
  const byLevel = (items: Item[]) => [...items.filter((i) => i.level === 1), ...items.filter((i) => i.level === 2)];
  return {
    goal: goal ? [{ label: goalText, text: goalText, level: 1 }] : [],
    inProgress: byLevel(doing.map((n) => task(n))),
    pending: byLevel(todo.map((n) => task(n))),
    errors: byLevel(errors.map((n) => plain(n, n.confidence >= 0.9 ? 1 : 2))),
    done: byLevel(done.map((n) => task(n, withWhy && n.detail && /passed|failed/.test(n.detail) ? n.detail : undefined))),
    // The why of a decision stated as such; one inferred from the tools a report names has none worth its tokens.
    decisions: byLevel(decisions.map((n) => plain(n, n.confidence >= EXPLICIT ? 1 : 2, withWhy && n.confidence >= EXPLICIT ? n.detail : undefined))),
    files: files.map((n) => ({ label: n.label, text: n.label, level: n.status === 'modified' ? 1 : 2, created: withWhy && n.detail === 'created' })),
    env: byLevel(env.map((n) => ({ label: n.label, text: withWhy && n.detail && n.type !== 'DEPENDENCY' ? `${n.label} (${n.detail})` : n.label, level: n.type === 'PROJECT' ? 1 : 2 }))),
    lastAsk,
  };
}

/** Decisions stated as such (not inferred from the tools a report names). */
const EXPLICIT = 0.75;

/** A task as the block shows it: no verb of making, no fillers; at the critical tier only what was made. */
function shortTask(label: string, compact: boolean): string {
  return denseLabel(compact ? compactTask(label) : dropMakingVerb(label));
}

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
  text = dropMakingVerb(mainClause(text));
  return text.trim() === '' ? label : text;
}

/** "handle conflicts when two devices edit one note" -> "handle conflicts ...": the clause before its subordinate one, if it says enough. */
function mainClause(text: string): string {
  const m = /^(.+?),?\s+(?:when|whenever|because|since|so that|so|after|before|while|which|if|unless|until)\s+\S/i.exec(text);
  return m && wordCount(m[1]) >= 3 && contentWords(m[1]).size >= 2 ? m[1] : text;
}

/** "I want to evaluate X", "Can you build X": the goal is X. */
function withoutAsking(goal: string): string {
  const m = /^(?:(?:hi|hey|hello|ok(?:ay)?|so|please)[,!.]?\s+)*(?:i(?:'d| would) like (?:you )?to|i want (?:you )?to|i need (?:you )?to|we need to|can you(?: please)?|could you(?: please)?|would you(?: please)?|please|help me|let'?s)\s+(.{3,})$/i.exec(goal);
  return m ? m[1] : goal;
}

/** "Add rate limiting" -> "rate limiting", "added chunking strategies" -> "chunking strategies": the section says the rest. */
function dropMakingVerb(label: string): string {
  const m = /^(?:add|added|create|created|write|wrote|build|built|implement|implemented|set up|setup|make|made|put in)\s+(?:a |an |the )?(.+)$/i.exec(label);
  if (!m || /^(?:to|for|in|on|at|with|from|into|it|this|that|them|up|sure|out)\b/i.test(m[1]) || contentWords(m[1]).size === 0) return label;
  return m[1];
}

/** At the critical tier the goal is its first clause: "Production down — 500 errors ..." -> "Production down". */
export function goalHead(label: string): string {
  const m = /^(.+?)(?:\s+[—–-]\s+|;\s+|:\s+|\s+\(|,?\s+(?:so that|so|because|since|in order to)\s+)(.*)$/.exec(label);
  if (!m || m[1].split(/\s+/).length < 3) return label;
  // "Implement the following plan: Consolidate logging ...": the head only points at the rest.
  if (/\b(?:following|below|this|these|plan|steps|instructions|request|task|spec)$/i.test(m[1])) return goalHead(m[2]) || label;
  return m[1];
}

/** True when `text` adds little to `shown`: the same words, or mostly the same as the shorter of the two. */
function restates(text: string, shown: string): boolean {
  if (text.toLowerCase() === shown.toLowerCase()) return true;
  const words = contentWords(text);
  if (words.size === 0) return false;
  return wordOverlap(text, shown) >= RESTATED && sameNumbers(text, shown);
}

/** Two thirds of the shorter label's words in the other: one thing said twice. */
const RESTATED = 2 / 3;

function sameNumbers(a: string, b: string): boolean {
  const nums = (t: string) => new Set(t.match(/\d+(?:\.\d+)*/g) ?? []);
  const [na, nb] = [nums(a), nums(b)];
  return [...na].every((n) => nb.has(n)) || [...nb].every((n) => na.has(n));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
