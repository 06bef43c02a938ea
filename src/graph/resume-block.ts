// The resume block: a session graph serialised into a few telegraphic lines under a hard token
// budget. Items go in by what they are worth per token; an item that does not fit whole is left out.

import { countTokens } from '../tokens/counter.js';
import { contentWords, sameThing, wordOverlap } from './labels.js';
import { fileList } from './file-list.js';
import { INSTRUCTION_VERBS } from './work-verbs.js';
import type { SessionGraph } from './model.js';
import { SECTION_NAMES, dropMakingVerb, resumeCandidates, type Item, type ResumeTier, type SectionName } from './resume-items.js';

export { SECTION_NAMES, compactChoice, compactTask, goalHead, resumeCandidates, type ResumeTier, type SectionName } from './resume-items.js';

export const TIER_BUDGETS: Record<ResumeTier, number> = { critical: 100, standard: 300, full: 600 };
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

const HEADERS: Record<SectionName, string> = {
  goal: 'Goal',
  inProgress: 'Doing',
  pending: 'Todo',
  errors: 'Broken',
  done: 'Done',
  decisions: 'Chosen',
  fixed: 'Fixed',
  files: 'Files',
  env: 'Env',
  lastAsk: 'Last ask',
};

/** Marks a goal the session carried out, and a choice a done task made ("DataLoader✓"). */
const DONE_MARK = '✓';

/**
 * What an item of each section is worth to whoever resumes: the goal above all, then open work,
 * then what was done and chosen, then the files (git shows those again), then the surroundings.
 * Each further item of a section is worth DECAY times the one before, so a section of cheap items
 * does not crowd out the others; a detail (level 2) is worth LEVEL_2 of a first-hand item, and a
 * detail of a task already shown DETAIL of that again.
 */

const WEIGHT: Record<SectionName, number> = { goal: 100, inProgress: 1, pending: 0.9, errors: 0.9, done: 0.8, decisions: 0.8, fixed: 0.8, files: 0.6, env: 0.1, lastAsk: 0.2 };
const LEVEL_2 = 0.5;
/** A tool a report shows in use ("using fl_chart") is named as plainly as one stated as chosen, and short. */
const INFERRED_CHOICE = 0.8;
const DETAIL = 0.5;
const DECAY = 0.8;

export function tierForBudget(budget: number): ResumeTier {
  return budget <= TIER_BUDGETS.critical ? 'critical' : budget <= TIER_BUDGETS.standard ? 'standard' : 'full';
}

export function buildResume(graph: SessionGraph, options: ResumeOptions = {}): ResumeBlock {
  const tier = options.tier ?? (options.budget !== undefined ? tierForBudget(options.budget) : 'standard');
  const budget = options.budget ?? TIER_BUDGETS[tier];
  const count = options.count ?? countTokens;
  const candidates = resumeCandidates(graph, tier);
  const chosen = Object.fromEntries(SECTION_NAMES.map((s) => [s, [] as Item[]])) as Record<SectionName, Item[]>;
  // What each section may still show, in its own order; an item leaves when shown or when it never can be.
  // Fillers (a reply's reasoned choices) wait until the rest is placed: they take only the room left.
  const remaining = Object.fromEntries(SECTION_NAMES.map((s) => [s, candidates[s].filter((i) => !i.filler)])) as Record<SectionName, Item[]>;
  let filling = false;
  // The choices each done task names, worked out once: labels do not change while the block is built.
  const named = new Map(candidates.done.map((d) => [d, new Set(candidates.decisions.filter((c) => !c.pinned && sameThing(c.label, d.label)))]));
  const choiceOf: ChoiceOf = (task, decisions) => decisions.find((c) => named.get(task)?.has(c));
  let text = '';
  let tokens = 0;
  // A line shows its items in the section's own order, whatever order they were chosen in.
  const withItem = (section: SectionName, item: Item) => [...chosen[section], item].sort((a, b) => candidates[section].indexOf(a) - candidates[section].indexOf(b));
  // The whole block is counted: a done task may be shown as a mark on another line (see render).
  const blockWith = (section: SectionName, item: Item) => {
    const next = render({ ...chosen, [section]: withItem(section, item) }, choiceOf);
    return { text: next, tokens: count(next) };
  };
  // Greedy by worth per token. A section goes in its own order, first-hand items before details,
  // but opens with whichever first-hand item is worth most per token: its header costs the same
  // whatever follows it, and one long item should not keep the whole section out.
  for (;;) {
    let best: { section: SectionName; item: Item; score: number; block: { text: string; tokens: number } } | undefined;
    for (const section of SECTION_NAMES) {
      // An item that repeats one shown, or cannot fit even now, never will: it leaves.
      const shown = [...chosen[section], ...alsoShown(section, chosen)];
      const opening = chosen[section].length === 0;
      const list = remaining[section];
      const kept: Item[] = [];
      for (let i = 0; i < list.length; i++) {
        const item = list[i];
        // Once a section is open only its next item is in question; the rest wait their turn.
        if (!opening && kept.length > 0) {
          kept.push(...list.slice(i));
          break;
        }
        const block = blockWith(section, item);
        if (shown.some((other) => repeats(section, item, other)) || block.tokens > budget) continue;
        kept.push(item);
        if (item.level !== kept[0].level) continue;
        const score = worth(section, item, chosen[section]) / Math.max(1, block.tokens - tokens);
        if (!best || score > best.score) best = { section, item, score, block };
      }
      remaining[section] = kept;
    }
    if (!best && !filling) {
      filling = true;
      for (const section of SECTION_NAMES) remaining[section] = candidates[section].filter((i) => i.filler);
      continue;
    }
    if (!best) break;
    const { section, item, block } = best;
    remaining[section] = remaining[section].filter((i) => i !== item);
    chosen[section] = withItem(section, item);
    text = block.text;
    tokens = block.tokens;
  }
  // A folder chosen before a file inside it says nothing the file does not; nor a choice of what
  // to do next chosen before the open task it made.
  const files = chosen.files.filter((f) => !chosen.files.some((other) => other !== f && repeats('files', f, other)));
  const decisions = chosen.decisions.filter((d) => !alsoShown('decisions', chosen).some((other) => repeats('decisions', d, other)));
  if (files.length < chosen.files.length || decisions.length < chosen.decisions.length) {
    chosen.files = files;
    chosen.decisions = decisions;
    text = render(chosen, choiceOf);
  }
  // Files named by their base names to fit are named in full when the room left allows.
  if (chosen.files.some((f) => f.text !== f.label)) {
    const whole = { ...chosen, files: chosen.files.map((f) => ({ ...f, text: f.label })) };
    const fuller = render(whole, choiceOf);
    if (count(fuller) <= budget) {
      chosen.files = whole.files;
      text = fuller;
    }
  }
  const sections = Object.fromEntries(SECTION_NAMES.map((s) => [s, chosen[s].map((i) => i.label)])) as ResumeSections;
  // A goal the session carried out is one of its done tasks; a done task shown as a mark on its
  // choice is named as the choice is.
  sections.done = [...chosen.goal.filter((g) => g.done && !g.recordedWork).map((g) => g.label), ...chosen.done.map((d) => choiceOf(d, chosen.decisions)?.label ?? d.label)];
  return { text, tokens: text === '' ? 0 : count(text), tier, budget, sections };
}

/** Items of other sections an item of `section` must not repeat. */
function alsoShown(section: SectionName, chosen: Record<SectionName, Item[]>): Item[] {
  // A problem the goal states ("Goal: Production down") is open until the block says otherwise.
  if (section === 'errors') return chosen.goal;
  // A done task that restates a goal counted among them.
  if (section === 'done') return chosen.goal.filter((g) => g.done && !g.recordedWork);
  // A choice of what to do next ("fine-tuning post next") and the open task it made are one thing.
  if (section === 'decisions') return [...chosen.inProgress, ...chosen.pending];
  return [];
}

function worth(section: SectionName, item: Item, shown: Item[]): number {
  if (item.pinned) return WEIGHT.goal;
  const detail = item.parent !== undefined && shown.some((s) => s.id === item.parent) ? DETAIL : 1;
  const level = item.level === 1 ? 1 : section === 'decisions' ? INFERRED_CHOICE : LEVEL_2;
  return WEIGHT[section] * level * DECAY ** shown.length * detail;
}

/** The shown choice a done task names ("DataLoader" for "DataLoader for ProductLoader and UserLoader"), if any. */
type ChoiceOf = (task: Item, decisions: Item[]) => Item | undefined;

function render(chosen: Record<SectionName, Item[]>, choiceOf: ChoiceOf): string {
  // "Done: DataLoader" beside "Chosen: DataLoader" says one thing twice: the choice carries the mark instead.
  const choices = new Map(chosen.done.map((d) => [d, choiceOf(d, chosen.decisions)]));
  const marked = new Set([...choices.values()].filter((c) => c !== undefined));
  const shown = {
    ...chosen,
    done: chosen.done.filter((d) => !choices.get(d)),
    decisions: chosen.decisions.map((c) => (marked.has(c) ? { ...c, text: `${c.label}${DONE_MARK}${c.text.slice(c.label.length)}` } : c)),
  };
  return SECTION_NAMES.filter((s) => shown[s].length > 0)
    .map((s) => renderLine(s, shown[s]))
    .join('\n');
}

function renderLine(section: SectionName, items: Item[]): string {
  // "Goal✓ X" costs what "Goal: X" does; "Goal done: X" a token more.
  if (section === 'goal' && items[0]?.done) return `${HEADERS.goal}${DONE_MARK} ${items.map((i) => i.text).join('; ')}`;
  if (section !== 'files') return `${HEADERS[section]}: ${items.map((i) => i.text).join('; ')}`;
  // Paths share their folders ("api/{auth,models}.py"); files the session created come last.
  const old = items.filter((i) => !i.created).map((i) => i.text);
  const created = items.filter((i) => i.created).map((i) => i.text);
  const parts = [old.length ? fileList(old) : '', created.length ? `new: ${fileList(created)}` : ''].filter(Boolean);
  return `${HEADERS.files}: ${parts.join('; ')}`;
}

/** True when `item` adds little to `shown`: a folder whose file is listed, or mostly the same words. */
function repeats(section: SectionName, item: Item, other: Item): boolean {
  if (section === 'files') return item.label === other.label || (item.label.endsWith('/') && other.label.startsWith(item.label));
  if (item.label.toLowerCase() === other.label.toLowerCase()) return true;
  if (contentWords(item.label).size === 0) return false;
  const said = (a: string, b: string) => wordOverlap(a, b) >= RESTATED || clippedWord(a, b);
  if (!sameNumbers(item.label, other.label)) return false;
  if (!TASK_SECTIONS.has(section)) return said(item.label, other.label);
  // A task is what it works on: two that share only their verb ("Update logger_test.go ...",
  // "Update logging.md ...") are two pieces of work; "Add refresh tokens" restates "refresh tokens".
  const [a, b] = [withoutWorkVerb(item.label), withoutWorkVerb(other.label)];
  if (a !== item.label && b !== other.label) return said(a, b);
  return said(dropMakingVerb(item.label), dropMakingVerb(other.label));
}

const TASK_SECTIONS = new Set<SectionName>(['inProgress', 'pending', 'done']);

/** "Updated logging.md documentation" -> "logging.md documentation". */
function withoutWorkVerb(label: string): string {
  const [first, ...rest] = label.split(/\s+/);
  const verb = first.toLowerCase().replace(/:$/, '');
  const base = [verb, verb.replace(/e?d$/, ''), verb.replace(/d$/, ''), verb.replace(/ied$/, 'y'), verb.replace(/(\w)\1ed$/, '$1')];
  return rest.length > 0 && base.some((v) => INSTRUCTION_VERBS.has(v)) ? rest.join(' ') : label;
}

/** "dedup" and "Deduplication": a one-word label that is the clipped form of the other's only word. */
function clippedWord(a: string, b: string): boolean {
  const [wa, wb] = [[...contentWords(a)], [...contentWords(b)]];
  if (wa.length !== 1 || wb.length !== 1) return false;
  const [short, long] = wa[0].length <= wb[0].length ? [wa[0], wb[0]] : [wb[0], wa[0]];
  return short.length >= 5 && long.startsWith(short);
}

/** Two thirds of the shorter label's words in the other: one thing said twice. */
const RESTATED = 2 / 3;

function sameNumbers(a: string, b: string): boolean {
  const nums = (t: string) => new Set(t.match(/\d+(?:\.\d+)*/g) ?? []);
  const [na, nb] = [nums(a), nums(b)];
  return [...na].every((n) => nb.has(n)) || [...nb].every((n) => na.has(n));
}
