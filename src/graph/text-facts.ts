// Extraction from prose, after the tool calls: status reports ("Completed: X", "Working on: Y",
// "Next: Z", "I've added W"), decisions with their why, errors stated in words, and the files,
// endpoints and measurements a text names. Used on assistant texts and on the user's prompts.

import type { DraftNode } from './graph-builder.js';
import { clipWords, normaliseLabel, sentences, wordCount, wordOverlap } from './labels.js';
import { decisionIn, isQuestion, splitChoices, versionSwitches } from './decisions.js';
import { mentionFile, noteChangedFile, parentTask, type ExtractState, type OpenError } from './extract-state.js';
import { fileMentions } from './mentions.js';
import { statusPhrase } from './status-phrases.js';
import { adopted, decisionFacts, mentionFacts } from './decision-facts.js';
import { listsUnderHeaders, reportKind } from './report-labels.js';
import { answerSuggestions } from './proposals.js';

const REPORT = /^([A-Za-z][A-Za-z -]{1,22}?)\s*:\s+(.+)$/;
/** "I've added X", "Fixed the Y": a sentence that reports finished work. */
const DONE_SENTENCE =
  /^(?:(?:i|we)(?:'ve| have)?\s+)?(?:now\s+|also\s+|successfully\s+|just\s+)?(added|implemented|created|fixed|updated|wrote|refactored|removed|renamed|moved|replaced|extracted|deployed|published|pushed|committed|installed|configured|built|migrated|converted|cleaned up|set up|resolved|enabled|disabled|documented|split|merged|optimi[sz]ed|parallelized|wired up|wired|hooked up|exposed|tightened|simplified|reworked|restructured|reorgani[sz]ed|rewrote|changed|shipped|finished|completed|landed|delivered|wrapped up|finali[sz]ed|rolled out|introduced|launched|ran|made|set|keyed|normali[sz]ed|scrubbed|generated|imported|exported|translated|tuned|trained|drafted|trimmed|reduced|upgraded|bumped|switched|scaffolded|bootstrapped|initiali[sz]ed|containeri[sz]ed|dockeri[sz]ed|scheduled|automated|packaged|patched|secured|hardened|integrated|connected|adjusted|increased|decreased|lowered|raised|limited|capped|batched|cached|indexed|partitioned|validated|sanitized|stripped|dropped|deduplicated|consolidated|unified|separated|isolated|mocked|stubbed|profiled|benchmarked)\s+(.{3,})$/i;
/** "Haven't started X yet", "X is next on the list": work not begun. */
const NOT_STARTED =
  /^(?:(?:we|i)\s+)?(?:haven't|have not|hasn't|has not)\s+(?:started|begun|touched|done)\s+(?:on\s+)?(.{3,}?)(?:\s+yet\b.*)?$|^(.{3,80}?)\s+(?:is|are)\s+(?:up\s+)?next\b(?:\s+on the list)?|^(?:next up|up next)[:,]?\s+(.{3,})$|^(.{3,80}?)\s+(?:isn't|is not|aren't|are not|hasn't been|has not been|haven't been|have not been)\s+(?:built|started|begun|done|implemented|written|touched)(?:\s+yet)?\b|^(.{3,80}?)\s+can wait\b/i;
/** "What's left is the PyPI release": a statement, though it opens like a question. */
const WHATS_LEFT = /^what(?:'s| is) (?:left|remaining|still open)(?: is)?:?\s+(.{3,})$/i;
/** "Not started.", "Not yet.": the reply has not begun what was asked. */
const NOT_STARTED_ALONE = /^(?:not (?:started|begun|done)(?: yet)?|not yet(?: started)?|nothing (?:has been )?started(?: yet)?)[.!]?$/i;
/** "We're seeing a panic on malformed input": a problem observed. */
const SEEING = /^(?:we're|we are|i'm|i am|we've been|i've been)\s+(?:seeing|getting|hitting)\s+(.{3,})$/i;
const DONE_ALONE =
  /^(?:all\s+)?(?:done|fixed|finished|complete|completed|resolved|sorted)[.!]?$|^(?:all\s+)?done\s*[—–-]\s+|^(?:that|this|it)(?:'s| is| was)\s+(?:now\s+)?(?:done|fixed|sorted|resolved|in place|working)\b|^that did the trick\b/i;
const WORKING_ON = /\b(?:(?:still|currently|now|i'm|i am|we're|we are)\s+)?working on\s+(.{3,})$/i;
const STILL_TO_DO = /^(?:(?:we|i|you)\s+)?(?:still\s+)?(?:need to|have to)\s+(.{3,})$|^(?:next(?: step)?(?: is| will be)?,?\s+(?:to\s+)?|todo:?\s+|left to do:?\s+)(.{3,})$/i;
const PROBLEM_WORDS =
  /\b(?:error|exception|crash|fail|bug|leak|race|deadlock|timeout|overflow|missing|broken|wrong|slow|blank|spike|lag|exhaust|n\+1|denied|refused|not found|undefined|null|mismatch|conflict|cve|vulnerab|duplicate|skew|drift|regression|growing|unbounded|never)/i;

/** "Noted — French isn't started", "Good catch. ...": the acknowledgement says nothing of the work. */
const ACK_LEAD = /^(?:(?:noted|ok(?:ay)?|sure|right|great|good catch|nice catch|got it|understood|yes|agreed|done)\s*(?:[,.!:]|\s[—–-])\s*)+(?=\S)/i;

export interface TextContext {
  role: 'user' | 'assistant';
  uuid: string;
  /** The last assistant text of a turn: where a reply sums up what it did. */
  final: boolean;
  /** The next sentence names the remedy ("Solution: X"): a "Fixed:" report before it states the cause. */
  remedyFollows?: boolean;
}

/** "Solution: X", "Fix: X": a label naming the remedy itself. */
const REMEDY_LABEL = /^(?:solution|fix|remedy|resolution|workaround)\s*:/i;

export function textFacts(text: string, ctx: TextContext, state: ExtractState): void {
  const all = sentences(listsUnderHeaders(text));
  if (ctx.role === 'assistant' && all.length > 0) answerSuggestions(all[0], state);
  for (const [i, sentence] of all.entries()) {
    if (ctx.role === 'assistant') {
      // "I wrote X but haven't run it yet": each clause reports its own status.
      const said = sentence.replace(ACK_LEAD, '');
      const parts = said.split(/,?\s+but\s+(?=(?:i|we)?\s*(?:haven't|have not|still|not)\b)|;\s+|,?\s+and\s+(?=there(?:'s| is| are)\s)/i);
      const remedyFollows = REMEDY_LABEL.test(all[i + 1] ?? '');
      for (const part of parts) statusFacts(part, remedyFollows ? { ...ctx, remedyFollows } : ctx, state);
    }
    const decision = decisionIn(sentence);
    if (decision) decisionFacts(decision, ctx, state);
    for (const change of versionSwitches(sentence)) decisionFacts(change, ctx, state);
    mentionFacts(sentence, ctx, state);
  }
}

function statusFacts(sentence: string, ctx: TextContext, state: ExtractState): void {
  const { builder, turn } = state;
  const base = { turn, uuid: ctx.uuid };
  const labelled = REPORT.exec(sentence);
  const kind = labelled ? reportKind(labelled[1]) : undefined;
  if (labelled && kind) {
    const content = labelled[2];
    const paths = fileMentions(content);
    if (kind === 'files' || (paths.length > 0 && onlyPaths(head(content), paths))) {
      for (const path of paths) {
        const file = mentionFile(state, path, { ...base, confidence: 0.75, status: 'modified' });
        // "Files: ci.yml" reports files the reply changed; "Creating: src/" says they are still being made.
        // A report is not a tool's evidence: the file is not held against open errors as a fix.
        if (file && !/ing$/i.test(labelled[1])) noteChangedFile(state, file);
      }
      if (kind !== 'files') state.signals.completed = true;
      return;
    }
    const label = head(content);
    if (kind === 'fixed') {
      fixReport(content, ctx, state);
    } else if (kind === 'completed') {
      workedOn(content, ctx, state);
      const task = builder.mention('TASK', label, { ...base, confidence: 0.8, status: 'completed' });
      builder.link(task, parentTask(state), 'PART_OF');
      state.signals.completed = true;
      finishNamed(label, ctx, state);
      adopted(content, task, ctx, state);
    } else if (kind === 'in_progress') {
      const task = builder.mention('TASK', label, { ...base, confidence: 0.8, status: 'in_progress' });
      builder.link(task, parentTask(state), 'PART_OF');
      if (task) state.signals.inProgress.push(task);
      adopted(content, task, ctx, state, true);
    } else if (kind === 'activity') {
      adopted(content, parentTask(state), ctx, state);
    } else if (kind === 'pending') {
      for (const item of listItems(content)) {
        const task = builder.mention('TASK', item, { ...base, confidence: 0.7, status: 'pending' });
        builder.link(task, parentTask(state), 'PART_OF');
        if (task) state.signals.notStarted.push(task);
      }
    } else if (kind === 'error' && (PROBLEM_WORDS.test(content) || !/^(?:found|secondary)$/i.test(labelled[1]))) {
      errorReport(content, label, ctx, state);
    }
    return;
  }
  if (isQuestion(sentence) && !WHATS_LEFT.test(sentence)) return;
  if (DONE_ALONE.test(sentence)) {
    state.signals.completed = true;
    if (/fixed|resolved/i.test(sentence)) state.signals.fixed = true;
    return;
  }
  const phrase = statusPhrase(sentence, ctx.final);
  if (phrase) {
    if (phrase.status === 'completed') {
      state.signals.completed = true;
      closeStatedErrors(undefined, ctx, state);
      workedOn(sentence, ctx, state);
    }
    // Narration between tool calls ("The connection is working now.") is a check, not a report.
    for (const label of phrase.status === 'completed' && !ctx.final ? [] : phrase.labels) {
      if (phrase.status === 'in_progress') {
        inProgress(head(label), ctx, state);
        continue;
      }
      const task = builder.mention('TASK', head(label), { ...base, confidence: phrase.status === 'completed' ? 0.7 : 0.65, status: phrase.status });
      builder.link(task, parentTask(state), 'PART_OF');
      if (phrase.status === 'completed') {
        finishNamed(label, ctx, state);
        adopted(phrase.predicate, task, ctx, state);
      }
    }
    return;
  }
  if (NOT_STARTED_ALONE.test(sentence)) {
    state.signals.notStartedAtAll = true;
    return;
  }
  const notStarted = NOT_STARTED.exec(sentence) ?? WHATS_LEFT.exec(sentence);
  if (notStarted) {
    const label = notStarted.slice(1).find((g) => g !== undefined) ?? '';
    // "It isn't built yet": a pronoun names nothing.
    if (/^(?:it|this|that|they|them|these|those|nothing|none)$/i.test(label.trim())) return;
    const task = builder.mention('TASK', head(label), { ...base, confidence: 0.7, status: 'pending' });
    builder.link(task, parentTask(state), 'PART_OF');
    if (task) state.signals.notStarted.push(task);
    return;
  }
  const seeing = SEEING.exec(sentence);
  if (seeing && PROBLEM_WORDS.test(seeing[1])) {
    errorReport(seeing[1], head(seeing[1]), ctx, state);
    return;
  }
  const working = WORKING_ON.exec(sentence);
  if (working) {
    inProgress(head(working[1]), ctx, state);
    return;
  }
  const todo = STILL_TO_DO.exec(sentence);
  if (todo && ctx.final) {
    const task = builder.mention('TASK', head(todo[1] ?? todo[2]), { ...base, confidence: 0.6, status: 'pending' });
    builder.link(task, parentTask(state), 'PART_OF');
    return;
  }
  const done = DONE_SENTENCE.exec(sentence);
  if (done && ctx.final) {
    const verb = done[1].toLowerCase();
    const paths = fileMentions(done[2]);
    if (paths.length > 0 && onlyPaths(head(done[2]), paths)) {
      for (const path of paths) mentionFile(state, path, { ...base, confidence: 0.7, status: 'modified' });
      state.signals.completed = true;
      return;
    }
    const label = head(`${verb} ${done[2]}`);
    if (wordCount(label) < 2) return;
    if (verb === 'fixed' || verb === 'resolved') return fixReport(done[2], ctx, state, 0.65);
    const task = builder.mention('TASK', label, { ...base, confidence: 0.65, status: 'completed' });
    builder.link(task, parentTask(state), 'PART_OF');
    state.signals.completed = true;
    closeStatedErrors(task, ctx, state);
    workedOn(sentence, ctx, state);
    adopted(`${verb} ${done[2]}`, task, ctx, state);
  }
}

/** "Added tests/test_pipeline.py with 14 tests": a file a report of finished work names was worked on. */
function workedOn(sentence: string, ctx: TextContext, state: ExtractState): void {
  for (const path of fileMentions(sentence)) mentionFile(state, path, { turn: state.turn, uuid: ctx.uuid, confidence: 0.7, status: 'modified' });
}

/** Problems the reply stated this turn ("Found: X") are fixed by the work it reports after them. */
function closeStatedErrors(by: DraftNode | undefined, ctx: TextContext, state: ExtractState): void {
  for (const open of state.signals.statedErrors.splice(0)) {
    const at = state.openErrors.indexOf(open);
    if (at < 0) continue;
    state.builder.advance(open.node, 'completed', state.turn, ctx.uuid);
    state.builder.link(by, open.node, 'FIXES');
    state.openErrors.splice(at, 1);
  }
}

/** "Completed: X" finishes the open tasks that X names ("Working on: X" earlier, or the user's "Add X"). */
function finishNamed(label: string, ctx: TextContext, state: ExtractState): void {
  for (const task of state.builder.all('TASK')) {
    if ((task.status !== 'in_progress' && task.status !== 'pending') || wordOverlap(task.label, label) < 0.6) continue;
    state.builder.advance(task, 'completed', state.turn, ctx.uuid);
    state.signals.inProgress = state.signals.inProgress.filter((t) => t !== task);
  }
}

function inProgress(label: string, ctx: TextContext, state: ExtractState): DraftNode | undefined {
  const task = state.builder.mention('TASK', label, { turn: state.turn, uuid: ctx.uuid, confidence: 0.7, status: 'in_progress' });
  state.builder.link(task, parentTask(state), 'PART_OF');
  if (task) state.signals.inProgress.push(task);
  return task;
}

/**
 * "Fixed: X". X is either the problem ("422 error — missing validation") or the remedy
 * ("multi-stage builds + BuildKit cache"); a remedy is a choice of approach. Either way the open
 * error it names (or else the latest one stated in words) is closed, and the fix is a done task.
 */
function fixReport(content: string, ctx: TextContext, state: ExtractState, confidence = 0.8): void {
  const { builder, turn } = state;
  state.signals.fixed = true;
  state.signals.completed = true;
  // "Fixed in components/PostDate.tsx": where, not what.
  const where = /^(?:in|at|inside)\s+(.+)$/i.exec(content.trim());
  if (where && fileMentions(where[1]).length > 0 && onlyPaths(where[1], fileMentions(where[1]))) {
    for (const path of fileMentions(where[1])) mentionFile(state, path, { turn, uuid: ctx.uuid, confidence: 0.75, status: 'modified' });
    return;
  }
  const what = head(content);
  const problem = PROBLEM_WORDS.test(what);
  const open = closableError(state, content);
  const task = builder.mention('TASK', fixLabel(problem || !open ? what : open.node.label), { turn, uuid: ctx.uuid, confidence, status: 'completed' });
  builder.link(task, parentTask(state), 'PART_OF');
  if (open) {
    builder.advance(open.node, 'completed', turn, ctx.uuid);
    builder.link(task, open.node, 'FIXES');
    state.openErrors.splice(state.openErrors.indexOf(open), 1);
  }
  // A remedy named in a few words ("multi-stage builds + BuildKit cache") is a choice of approach;
  // a sentence describing the new behaviour ("rows are now padded ...") is not.
  if (!problem && !ctx.remedyFollows && wordCount(content) <= 14 && !/\b(?:now|no longer|again)\b/i.test(content)) {
    for (const item of splitChoices(content.replace(/\(\d+\)\s*/g, ''))) {
      const remedy = builder.mention('DECISION', item.label, { turn, uuid: ctx.uuid, confidence: 0.65, detail: item.why ?? (open ? `fix for ${open.node.label}` : undefined) });
      builder.link(remedy, task, 'IMPLEMENTS');
    }
  }
  adopted(content, task, ctx, state);
}

/** The open error a fix is about: the one it names, else the latest one stated in words. */
export function closableError(state: ExtractState, text: string): OpenError | undefined {
  return state.openErrors.find((o) => overlaps(o.node.label, text)) ?? state.openErrors.filter((o) => o.command === undefined && o.file === undefined).at(-1);
}

/** "Error: X — working on cleanup", "Found: X — added cleanup": the error, and what is done about it. */
function errorReport(content: string, label: string, ctx: TextContext, state: ExtractState): void {
  const { builder, turn } = state;
  const error = builder.mention('ERROR', label, { turn, uuid: ctx.uuid, confidence: 0.7, status: 'failed' });
  if (!error) return;
  const action = /\s[—–-]\s+((?:added|fixed|resolved|removed|cleared|patched|handled)\s+.+)$/i.exec(content);
  if (action) {
    const task = builder.mention('TASK', `${head(action[1])}: ${label}`, { turn, uuid: ctx.uuid, confidence: 0.7, status: 'completed' });
    builder.advance(error, 'completed', turn, ctx.uuid);
    builder.link(task, error, 'FIXES');
    builder.link(task, parentTask(state), 'PART_OF');
    return;
  }
  if (!state.openErrors.some((o) => o.node === error)) {
    const open = { node: error, changedSince: [] };
    state.openErrors.push(open);
    if (ctx.role === 'assistant') state.signals.statedErrors.push(open);
  }
  builder.link(error, parentTask(state), 'BLOCKS');
  const trailing = WORKING_ON.exec(content);
  if (trailing) {
    const task = inProgress(`${head(trailing[1])}: ${label}`, ctx, state);
    builder.link(task, error, 'FIXES');
  }
}

function overlaps(a: string, b: string): boolean {
  const wa = new Set(a.toLowerCase().match(/[\p{L}\p{N}_]{4,}/gu) ?? []);
  return (b.toLowerCase().match(/[\p{L}\p{N}_]{4,}/gu) ?? []).some((w) => wa.has(w));
}

export function fixLabel(what: string): string {
  return /^fix(?:ed|es)?\b/i.test(what) ? what : `fix ${what}`;
}

/** True when a report's content is nothing but file paths (and separators). */
function onlyPaths(content: string, paths: string[]): boolean {
  let rest = content;
  for (const path of paths) rest = rest.split(path).join(' ');
  return rest.replace(/[\s,;.`'"()]|and|—|-/g, '') === '';
}

/** The head of a clause: up to a dash, a colon or an aside, at most 10 words. */
export function head(text: string): string {
  const cut = text.split(
    /\s+[—–]\s+|\s+-\s+|:\s|;\s|\s\((?!\))|,\s+(?:all green|all tests pass|tests pass|and (?:it )?works)\b|,?\s+(?:but|so|because|since|although|though|whereas|which means)\s+/i,
  )[0];
  return normaliseLabel(clipWords(cut, 10));
}

/** "screenshots, app icon, privacy policy URL": short items of a list, or the whole as one. */
function listItems(content: string): string[] {
  const parts = content
    .split(/,\s*(?:and\s+)?|\s+and\s+/)
    .map((p) => head(p))
    .filter(Boolean);
  return parts.length > 1 && parts.every((p) => wordCount(p) <= 5) ? parts : [head(content)];
}
