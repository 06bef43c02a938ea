// What a resume block may show, section by section: each node as a telegraphic item ("Add the
// rate limiting" -> "rate limiting"), first-hand items before details, most important first.

import { contentWords, denseLabel, sameThing, wordCount, wordOverlap } from './labels.js';
import { isPath } from './mentions.js';
import { baseName } from './file-list.js';
import { INSTRUCTION_VERBS } from './work-verbs.js';
import type { GraphNode, SessionGraph } from './model.js';

export type ResumeTier = 'critical' | 'standard' | 'full';

export const SECTION_NAMES = ['goal', 'inProgress', 'pending', 'errors', 'done', 'decisions', 'fixed', 'files', 'env', 'lastAsk'] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

export interface Item {
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
  /** Shown right after the goal: the goal left it out because this item says it. */
  pinned?: boolean;
  /** A goal the session carried out: the block marks it done and counts it among done tasks. */
  done?: boolean;
  /**
   * The goal is not one more done task: the log records its finished work item by item (the goal is
   * their heading), or it reports a problem (settled, it is a problem met, not a piece of work).
   */
  recordedWork?: boolean;
  /** Shown only in the room the other items leave (a reply's reasoned choice). */
  filler?: boolean;
}

/** Rules whose choices fill the room the rest of the block leaves. */
const FILLER_RULES = new Set(['decision.reasoned-choice', 'decision.commit-scope']);
/** At the critical tier, the choices read from a plan's steps and a reply's sentences fill only the room left too. */
const CRITICAL_FILLER_RULES = new Set(['decision.plan-prompt', 'decision.plan-extras', 'decision.kept-or-set']);

/** Rules that read prose, not the log's own records. */
const PROSE_RULES = new Set(['prompt.ask', 'prompt.turn-status', 'prose.reply']);

/** Decisions stated as such (not inferred from the tools a report names). */
const EXPLICIT = 0.75;

/** Every item each section could show: pinned items, then first-hand ones, each most important first. */
export function resumeCandidates(graph: SessionGraph, tier: ResumeTier): Record<SectionName, Item[]> {
  const withWhy = tier !== 'critical';
  const compact = tier === 'critical';
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  // In a session whose tools changed files, only files changed inside the project: what it read
  // is context, not its work. A text-only session names its files in prose.
  const toolsChanged = graph.nodes.some((n) => n.type === 'FILE' && (n.rules?.includes('file.changed') || n.rules?.includes('plan.written')));
  const partOf = new Map<string, string>();
  const superseded = new Set<string>();
  const beingFixed = new Set<string>();
  for (const edge of graph.edges) {
    if (edge.type === 'PART_OF' && byId.get(edge.to)?.type === 'TASK' && !partOf.has(edge.from)) partOf.set(edge.from, edge.to);
    if (edge.type === 'SUPERSEDES') superseded.add(edge.to);
    if (edge.type === 'FIXES' && byId.get(edge.from)?.status === 'in_progress') beingFixed.add(edge.to);
  }
  // A task the user asked for (or one of the session's own todo list) comes before a detail of one.
  const topLevel = (n: GraphNode) => !partOf.has(n.id);
  // Of two nodes alike in all else, the one the log named first: the graph lists nodes in that
  // order, and the sort is stable.
  const rank = (a: GraphNode, b: GraphNode) => Number(topLevel(b)) - Number(topLevel(a)) || b.importance - a.importance || b.confidence - a.confidence || a.firstTurn - b.firstTurn;
  const of = (type: GraphNode['type'], keep: (n: GraphNode) => boolean = () => true) => graph.nodes.filter((n) => n.type === type && keep(n)).sort(rank);
  const withDetail = (label: string, detail: string | undefined) => (detail ? `${label} (${detail})` : label);
  // The session's own task list (TodoWrite, TaskCreate) is as first-hand as what the user asked for.
  const task = (n: GraphNode, detail?: string): Item => {
    const label = shortTask(n.label, compact);
    return { label, text: withDetail(label, detail), level: topLevel(n) || n.confidence >= 1 ? 1 : 2, id: n.id, parent: partOf.get(n.id) };
  };
  const plain = (n: GraphNode, level: 1 | 2, detail?: string, raw = n.label): Item => {
    const label = denseLabel(raw);
    return { label, text: withDetail(label, detail), level };
  };
  // A path inside a choice is named by its file ("single fixed file: entire.log"): the Files line and the graph keep the folders.
  const choice = (n: GraphNode, level: 1 | 2, detail?: string): Item => plain(n, level, detail, compact ? compactChoice(n.label) : choicePaths(n.label));

  // In a session whose tools changed files, a task only the prose named (a prompt read as an
  // instruction, a phrase of a reply) is left out when the log's own records name tasks.
  const grounded = (n: GraphNode) => !toolsChanged || (n.rules ?? []).some((r) => !PROSE_RULES.has(r)) || !hasGroundedTasks;
  const hasGroundedTasks = graph.nodes.some((n) => n.type === 'TASK' && (n.rules ?? []).some((r) => !PROSE_RULES.has(r)));
  // Where tools did the work, tasks the log records (task lists, commits, pushes, PRs, the tracker,
  // plans, summaries) before those a reply's report lists, before those only the prose reads.
  const byRecord = (list: GraphNode[]) => (toolsChanged ? list.sort((a, b) => taskSource(a) - taskSource(b)) : list);
  const doing = byRecord(of('TASK', (n) => n.status === 'in_progress' && grounded(n)));
  const todo = byRecord(of('TASK', (n) => n.status === 'pending' && grounded(n)));
  const done = byRecord(of('TASK', (n) => n.status === 'completed' && grounded(n)));
  // A bare name the prose called chosen ("PostHog", "paths") says nothing where tools did the work.
  const decisions = of('DECISION', (n) => !superseded.has(n.id) && !(toolsChanged && (n.rules ?? []).every((r) => PROSE_RULES.has(r)) && wordCount(n.label) <= 2));
  // Changed files before read ones, the latest changed first: the work resumes where it stopped,
  // whatever an earlier file was referred to.
  const files = of('FILE', (n) => !toolsChanged || (n.status === 'modified' && !n.label.endsWith('/') && !/^(?:\/|~)/.test(n.label))).sort(
    (a, b) => Number(b.status === 'modified') - Number(a.status === 'modified') || b.lastTurn - a.lastTurn || rank(a, b),
  );
  // Where tools did the work, a problem only the prose rules read is left out: the checks, the
  // summaries and the sentences that name a problem say what went wrong.
  const proseOnly = (n: GraphNode) => toolsChanged && (n.rules ?? []).every((r) => PROSE_RULES.has(r));
  const errors = of('ERROR', (n) => n.status === 'failed' && !beingFixed.has(n.id) && !proseOnly(n));
  // Problems met and settled: what the resuming engineer should not walk into again.
  const fixed = of('ERROR', (n) => (n.status === 'completed' || beingFixed.has(n.id)) && !proseOnly(n));
  // At the critical tier the project folder goes: the resumed session runs in it.
  const env = [...(compact ? [] : of('PROJECT')), ...of('ENVIRONMENT'), ...of('DEPENDENCY')];
  const goal = graph.nodes.find((n) => n.type === 'GOAL');
  const { text: goalText, pinned } = goalLine(goal, decisions, compact);
  const ask = graph.lastAsk;
  const asked = ask && ![...doing, ...todo, ...done].some((t) => sameThing(t.label, ask) || wordOverlap(t.label, ask) >= 0.9) && goal?.label !== ask;
  return {
    goal: goal ? [{ label: goalText, text: goalText, level: 1, done: goal.status === 'completed', recordedWork: !goalIsTask(graph, goal) }] : [],
    inProgress: byLevel(doing.map((n) => task(n))),
    pending: byLevel(todo.map((n) => task(n))),
    errors: byLevel(errors.map((n) => plain(n, n.confidence >= 0.9 ? 1 : 2))),
    done: byLevel(done.map((n) => task(n, withWhy && n.detail && /passed|failed/.test(n.detail) ? n.detail : undefined))),
    // The why of a decision stated as such; one inferred from the tools a report names has none worth its tokens.
    decisions: [
      ...pinned.map((n) => ({ ...plain(n, 1), pinned: true })),
      ...byLevel(
        decisions
          .filter((n) => !pinned.includes(n))
          .map((n) => ({
            // A choice that names what it beat ("X over Y") says enough without the question it answered.
            ...choice(n, n.confidence >= EXPLICIT && !bareCount(n.label) ? 1 : 2, withWhy && n.confidence >= EXPLICIT && !/\s(?:over|instead of)\s/.test(n.label) ? n.detail : undefined),
            filler: (n.rules ?? []).every((r) => FILLER_RULES.has(r) || (compact && CRITICAL_FILLER_RULES.has(r))),
          })),
      ),
    ],
    fixed: byLevel(fixed.map((n) => plain(n, n.confidence >= 0.9 ? 1 : 2))),
    files: byLevel(files.map((n) => ({ label: n.label, text: compact ? shortPath(n.label, files) : n.label, level: n.status === 'modified' ? 1 : 2, created: withWhy && n.detail === 'created' }))),
    env: byLevel(env.map((n) => ({ label: n.label, text: withDetail(n.label, withWhy && n.type !== 'DEPENDENCY' ? n.detail : undefined), level: n.type === 'PROJECT' ? 1 : 2 }))),
    lastAsk: asked ? [{ label: ask, text: ask, level: 1 }] : [],
  };
}

/**
 * The log records the session's finished work item by item (a task list, commits, the tracker, a
 * plan): a goal carried out is then the heading of that work, not a done task of its own.
 */
export function recordsDoneWork(graph: SessionGraph): boolean {
  // A compaction summary retells the work in its own words; it records no item of it.
  return graph.nodes.some((n) => n.type === 'TASK' && n.status === 'completed' && taskSource(n) === 0 && !(n.rules ?? []).every((r) => r.startsWith('summary.')));
}

/**
 * "I tried to make a release and did run into an issue: ...", "I've noticed a delay before the prompt
 * returns": a goal that reports a problem, not one that asks for work ("Fix the login bug").
 */
const REPORTED_PROBLEM = /\b(?:ran|run|running) into\b|\bi(?:'ve| have)? noticed\b|\b(?:doesn't|does not|isn't|is not) working\b|\bis broken\b/i;

/** A goal the session carried out is one of its done tasks unless the log records that work item by item, or the goal only reported a problem. */
export function goalIsTask(graph: SessionGraph, goal: GraphNode): boolean {
  const first = goal.label.split(/\s+/)[0]?.toLowerCase() ?? '';
  return !recordsDoneWork(graph) && (INSTRUCTION_VERBS.has(first) || !REPORTED_PROBLEM.test(goal.label));
}

/** Rules that read a reply's own report of work done or left (a list, or the line it opens with). */
const REPORT_RULES = new Set(['report.done-list', 'report.open-list', 'report.done-lead', 'report.passive-done']);

/** 0: a task the log records; 1: one a reply's report lists; 2: one only the prose reads. */
function taskSource(n: GraphNode): number {
  const rules = n.rules ?? [];
  if (rules.some((r) => !PROSE_RULES.has(r) && !REPORT_RULES.has(r))) return 0;
  return rules.some((r) => REPORT_RULES.has(r)) ? 1 : 2;
}

/** ".entire/logs/entire.log" -> "entire.log" inside a choice's label: a path of three or more parts goes by its file name. */
function choicePaths(label: string): string {
  return label.replace(/(?<![\w/.-])\.?[\w-]+(?:\/[\w.-]+){2,}\.\w+\b/g, (path) => baseName(path));
}

/** At the critical tier a file is named by its base name when no other file of the session has it. */
function shortPath(path: string, files: GraphNode[]): string {
  const base = baseName(path);
  return base !== path && files.every((f) => f.label === path || baseName(f.label) !== base) ? base : path;
}

/** "3 AZs", "4-5 positive": a count of something is a detail of a plan, not a choice of how. */
function bareCount(label: string): boolean {
  return /^\d[\d.,-]*\s+\S+$/.test(label);
}

function byLevel(items: Item[]): Item[] {
  return [...items.filter((i) => i.level === 1), ...items.filter((i) => i.level === 2)];
}

/**
 * The goal as the block shows it. At the critical tier: its first clause, and "Build X with JWT
 * and PostgreSQL" says its choices once, on the Chosen line, where they are pinned.
 */
function goalLine(goal: GraphNode | undefined, decisions: GraphNode[], compact: boolean): { text: string; pinned: GraphNode[] } {
  if (!goal) return { text: '', pinned: [] };
  const text = denseLabel(compact ? dropMakingVerb(withoutAsking(goalHead(goal.label))) : withoutAsking(goal.label));
  const tail = compact ? /^(.{8,}?)\s+(?:with|using|via)\s+([^,;()]+)$/i.exec(text) : null;
  if (!tail) return { text, pinned: [] };
  const named = tail[2].split(/\s*,\s*(?:and\s+)?|\s+and\s+|\s*\+\s*/).map((name) => decisions.find((d) => d.label.toLowerCase() === name.toLowerCase()));
  return named.every((d) => d !== undefined) ? { text: tail[1], pinned: named as GraphNode[] } : { text, pinned: [] };
}

/** A task as the block shows it: no verb of making, no fillers; at the critical tier only what was made. */
function shortTask(label: string, compact: boolean): string {
  return denseLabel(compact ? compactTask(label) : label);
}

/**
 * At the critical tier a task says only what was made: no verb of making ("Add rate limiting" ->
 * "rate limiting"), no file it went into (the Files line has it), no tool it was made with (the
 * Chosen line has it), no aside after a dash, no subordinate or relative clause when the main one
 * says enough, no long purpose, no second step on what the first made.
 */
export function compactTask(label: string): string {
  let text = label.replace(/\s+[—–]\s+.*$|\s+\([^)]*\)$/, '');
  text = text.replace(/\s+(?:using|via)\s+\S.*$/i, '').replace(/\s+with\s+(?=[A-Z]|\S*[A-Z])[^,;]*$/, '');
  // "DataLoader for ProductLoader and UserLoader": the names it was applied to are detail.
  text = text.replace(/^(\S.*?)\s+(?:for|with|on|across)\s+[A-Z][\w.]*(?:(?:,\s*(?:and\s+)?|\s+and\s+)[A-Z][\w.]*)+(?:\s+[a-z]+)?$/, '$1');
  text = mainClause(withoutPronoun(firstAction(withoutPurpose(withoutParticiplePhrase(text)))));
  const place = /^(.+?)\s+(?:in|to|into|inside|under)\s+(\S+)$/.exec(text);
  if (place && isPath(place[2])) text = place[1];
  text = dropMakingVerb(text);
  return text.trim() === '' ? label : text;
}

/**
 * "users.last_login column and backfill it from sessions" -> "users.last_login column": a second
 * action on what the first made ("and <verb> it") is a further step, when the first names a thing
 * in two words or more. A list ("build, test, and lint commands") is one thing.
 */
function firstAction(text: string): string {
  const m = /^([^,;]+?)\s+and\s+\S+\s+(?:it|them)\b/i.exec(text);
  return m && contentWords(m[1]).size >= 2 ? m[1] : text;
}

/**
 * "line chart for daily active users" -> "line chart": a purpose of three words or more after a
 * thing named in two is detail at the critical tier ("unit tests for stores" keeps its one).
 */
function withoutPurpose(text: string): string {
  const m = /^(.+?)\s+for\s+(\S+(?:\s+\S+){2,})$/.exec(text);
  if (!m) return text;
  const thing = dropMakingVerb(m[1]);
  return wordCount(thing) === 2 && contentWords(thing).size === 2 && !INSTRUCTION_VERBS.has(thing.split(' ')[0].toLowerCase()) ? m[1] : text;
}

/** "publish it to npm" -> "publish to npm": the pronoun points at what the line is about. */
function withoutPronoun(text: string): string {
  return text.replace(/^(\S+)\s+(?:it|them)\s+(?=\S)/i, '$1 ');
}

/** A choice as the critical tier shows it: what was chosen, not what it was applied to or done with. */
export function compactChoice(label: string): string {
  // "No rig over spotter": at the critical tier the choice, not what it beat.
  let text = chosenThing(withoutCount(label)).replace(/\s+over\s+[^,;()]+(?:\([^()]*\))?$/, '');
  // "cross-variant users excluded in abtest/load.py, count logged": the Files line names the file,
  // and what follows a single comma is an aside (two or more make a list).
  text = text.replace(/\s+(?:in|to|into|inside|under)\s+(\S+)(?=,|$)/, (whole, path: string) => (isPath(path) ? '' : whole));
  const first = /^([^,]+),\s+[^,]+$/.exec(outsideBrackets(text));
  const head = first ? text.slice(0, first[1].length) : text;
  return contentWords(head).size >= 2 ? head : text;
}

/**
 * At the critical tier a choice stated as what to do with the work says what it is: "do it in
 * batches of 5,000 rows" -> "batches of 5,000 rows", "Running them as a separate step" ->
 * "separate step"; with a verb that carries the choice, only the pronoun goes ("split into ...").
 */
function chosenThing(label: string): string {
  const m =
    /^(?:do|does|doing|run|runs|running|make|makes|making|keep|keeps|keeping|put|puts|putting|have|having|treat|treating|use|using)\s+(?:it|them)\s+(?:(?:in|as|on|via|through|with|at|into)\s+)?(\S.*)$/i.exec(
      label,
    );
  return m && contentWords(m[1]).size > 0 ? m[1] : withoutPronoun(label);
}

/**
 * "ingestion layer auto-detecting JSON/CSV" -> "ingestion layer": a thing made (two words or
 * more), then what it does to an object. Not after a verb ("fix Charts showing blank": the -ing
 * words are the point), nor a gerund naming the work ("batch processing with …", "error
 * handling improvements", "dead-letter handling for …").
 */
function withoutParticiplePhrase(text: string): string {
  const m = /^(\S+(?:\s+\S+){1,2}?)\s+(?:[a-z]+-)?[a-z]{3,}ing\s+(\S+)/.exec(text);
  if (!m || PREPOSITION.test(m[2])) return text;
  const first = m[1].split(/\s+/)[0].toLowerCase();
  if (INSTRUCTION_VERBS.has(first) || /(?:ed|ing)$/.test(first)) return text;
  return contentWords(m[1]).size >= 2 ? m[1] : text;
}

const PREPOSITION = /^(?:for|with|to|of|in|on|at|from|into|by|via|across|between|through|over|under|and|or)$/i;

/** "handle conflicts when two devices edit one note" -> "handle conflicts", "fix OOM crash during training" -> "fix OOM crash", when the main clause has three words or more. */
function mainClause(text: string): string {
  const m = /^(.+?),?\s+(?:when|whenever|because|since|so that|so|after|before|while|during|which|that|if|unless|until)\s+\S/i.exec(text);
  return m && wordCount(m[1]) >= 3 && contentWords(m[1]).size >= 2 ? m[1] : text;
}

/** "Add rate limiting" -> "rate limiting", "added chunking strategies" -> "chunking strategies": the section says the rest. */
export function dropMakingVerb(label: string): string {
  const m = /^(?:add|added|create|created|write|wrote|build|built|design|designed|implement|implemented|set up|setup|make|made|put in)\s+(?:me |us )?(?:a |an |the )?(.+)$/i.exec(label);
  if (!m || /^(?:to|for|in|on|at|with|from|into|it|this|that|them|up|sure|out)\b/i.test(m[1]) || contentWords(m[1]).size === 0) return label;
  return m[1];
}

/**
 * At the critical tier a choice says what was chosen, not how many things it was applied to:
 * "replica identity FULL on 7 tables without PK" -> "replica identity FULL".
 */
function withoutCount(label: string): string {
  const m = /^(.+?)\s+(?:on|for|across|in|to)\s+(?:all\s+)?\d[\d,]*\s+[a-z][\w-]*(?:\s.*)?$/.exec(label);
  return m && wordCount(m[1]) >= 2 ? m[1] : label;
}

/** "I want to evaluate X", "Can you build X": the goal is X. */
function withoutAsking(goal: string): string {
  const m =
    /^(?:(?:hi|hey|hello|ok(?:ay)?|so|please)[,!.]?\s+)*(?:i(?:'d| would) like (?:you )?to|i want (?:you )?to|i need (?:you )?to|we need to|can you(?: please)?|could you(?: please)?|would you(?: please)?|please|help me|let'?s)\s+(.{3,})$/i.exec(
      goal,
    );
  return m ? m[1] : goal;
}

/** The text with what stands inside (), [] and {} replaced by as many underscores. */
function outsideBrackets(text: string): string {
  let depth = 0;
  let out = '';
  // UTF-16 units, not code points: the result is sliced by the same indices as the text.
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ('([{'.includes(c)) depth++;
    out += depth > 0 ? (c === '(' && depth === 1 ? c : '_') : c;
    if (')]}'.includes(c) && depth > 0) depth--;
  }
  return out;
}

/** At the critical tier the goal is its first clause: "Production down — 500 errors ..." -> "Production down". */
export function goalHead(label: string): string {
  // Searched with bracketed text blanked out: "multiply_numbers(a: int, b: int)" holds no clause end.
  const m = /^(.+?)(?:\s+[—–-]\s+|;\s+|:\s+|\s+\(|,?\s+(?:so that|so|because|since|in order to)\s+)(.*)$/.exec(outsideBrackets(label));
  if (!m) return label;
  const [head, rest] = [label.slice(0, m[1].length), label.slice(label.length - m[2].length)];
  if (head.split(/\s+/).length < 2) return label;
  // "Implement the following plan: Consolidate logging ...": the head only points at the rest.
  if (/\b(?:following|below|this|these|plan|steps|instructions|request|task|spec)$/i.test(head)) return goalHead(rest) || label;
  return head;
}
