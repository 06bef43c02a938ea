// Written texts a later call of the same conversation supersedes, and plans their result repeats:
// with the project's files absent, a Write's content or an edit's new_string is the resumed model's
// only copy of what a file holds, unless a later call shows it again (held) or took it out of the
// file (replaced). Pass 1 notes each call as read (before stripping); pass 2 decides, once the results
// and the resumed path are known, and rewrites the call's line. Pure apart from what pass 1 feeds it.

import type { SessionEntry } from '../session/entry.js';
import { contentBlocks, contentText, type JsonObject } from '../session/payload.js';
import { formatSize, isStub, stubReplacedRun, stubToolInput } from './stubs.js';
import { MIN_QUOTED_RUN_CHARS, pointQuotedRuns, type QuotedSource } from './quoted-passages.js';

/** How a later call answers for an earlier written text. */
export type Supersession =
  /** The later call's written text (Write content, edit new_string) holds the whole earlier text. */
  | 'held'
  /** The later call is a Write of the same file, without the earlier text: it replaced the whole file. */
  | 'rewritten'
  /** An edit of the later call replaced text holding the whole earlier text (its old_string holds it). */
  | 'replaced'
  /** The result of a later ExitPlanMode (the approved plan, kept verbatim) holds it. */
  | 'plan';

/** One judgement of what the trim may drop of a written text or a plan, as data (STYLE: rules kept as data). */
export interface SupersededRule {
  id: string;
  applies: Supersession | 'own-result' | 'quoted' | 'replaced-in-part';
  why: string;
}

export const SUPERSEDED_INPUT_RULES: readonly SupersededRule[] = [
  {
    id: 'written.held-later',
    applies: 'held',
    why: 'a later applied Write or edit of the same file carries the same text verbatim, and the trim keeps it (or stubs it by a rule of its own that the stub names): the model finds the text there, by the call id',
  },
  {
    id: 'written.rewritten-later',
    applies: 'rewritten',
    why: 'a later applied Write of the same file, which does not hold the text, replaced the whole file: the file no longer holds it, and the later content is what it holds',
  },
  {
    id: 'written.replaced-later',
    applies: 'replaced',
    why: 'a later applied edit of the same file replaced text holding all of it (an edit applies only where its old_string is found, once unless replace_all): what the earlier call wrote is gone from the file, the later new_string is there instead',
  },
  {
    id: 'written.replaced-in-part-later',
    applies: 'replaced-in-part',
    why: 'a later applied edit of the same file replaced a run of whole lines (200 chars or more) of the text, which its old_string holds (an edit applies only where its old_string is found): those lines are gone from the file, or stand again in the later new_string, which shows what the file holds there now; the run goes from the earlier text, the rest stays (the same reason as the replaced text of an applied edit)',
  },
  {
    id: 'command.held-later',
    applies: 'held',
    why: 'a Bash command over the threshold (a commit or pull-request message in a heredoc) that a later Bash command Claude Code sends holds verbatim, whatever either one\u2019s outcome (a commit the pre-commit hook refused, run again alike): the model finds the text there, by the call id; the earlier call keeps its result',
  },
  {
    id: 'written.in-approved-plan',
    applies: 'plan',
    why: 'a plan file written in plan mode: the result of the later approved ExitPlanMode repeats the plan whole, and tool results of ExitPlanMode are never stubbed',
  },
  {
    id: 'quoted.passage-of-earlier',
    applies: 'quoted',
    why: 'a Write content, edit new_string or subagent prompt that carries runs of lines (200 chars or more) of a text an earlier call wrote, which the trim keeps (it neither goes nor is pointed to by a later call): each run points back to that call (quoted-passages.ts), the lines no earlier text holds stay',
  },
  {
    id: 'plan.held-by-result',
    applies: 'own-result',
    why: 'an approved ExitPlanMode result repeats its plan verbatim ("## Approved Plan:", 2.1.x logs); the plan input is kept where the plan was rejected (the user’s answer refers to it)',
  },
];

/** A text is a candidate only when the stub saves at least this much. */
const MIN_SAVED_CHARS = 120;
/**
 * A run of an earlier text a later edit replaced goes when it is at least this long (as a quoted
 * passage: its stub is ~25 tokens; 120 and 80 removed no more on the 17 long tool-heavy logs).
 */
const MIN_REPLACED_RUN_CHARS = MIN_QUOTED_RUN_CHARS;
/** Later calls that may answer for one text, checked in order in pass 2 (the first valid one wins). */
const MAX_ANSWERS = 4;
/** Chars of candidate texts remembered at most: memory stays bounded whatever the size of the log. */
const MAX_PENDING_CHARS = 4 * 1024 * 1024;
/** Chars searched for quoted passages at most, per trim. */
const MAX_PASSAGE_CHARS = 64 * 1024 * 1024;
/** Earlier texts of a file checked for what a later call does to them, and quoted from: the latest. */
const MAX_PENDING_PER_FILE = 32;
/** Earlier texts a subagent prompt may quote from: the latest, of any file. */
const MAX_PROMPT_SOURCES = 64;
/** The edit index of a subagent prompt (Task, Agent), which only quotes earlier texts. */
const PROMPT = -2;
const PROMPT_TOOLS = new Set(['Task', 'Agent']);
/** The edit index of a Bash command, which only a later command holding it whole answers for. */
const COMMAND = -3;
/** Earlier commands a later one is checked against for holding them: the latest. */
const MAX_PENDING_COMMANDS = 32;

interface Answer {
  toolId: string;
  kind: Supersession;
}

interface Candidate {
  toolId: string;
  tool: string;
  path: string;
  /** The edit of a MultiEdit (its index), 0 for an Edit, -1 for a Write's content, PROMPT for a subagent prompt. */
  edit: number;
  text: string;
  answers: Answer[];
  /** Later edits of the same file whose old_strings may hold runs of the text (not all of it). */
  partial: { toolId: string; tool: string; olds: string[] }[];
  /** Pass 1 left the text as it was (it stubbed nothing of it for the disk's sake). */
  kept?: boolean;
  /** Pass 1 stubbed the whole text: the file on disk holds it (files present). */
  onDisk?: boolean;
}

interface CallSeen {
  use: SessionEntry;
  tool: string;
  /** The entry of the result that answered it, and whether that result was not an error. */
  result?: SessionEntry;
  applied?: boolean;
  /** ExitPlanMode: its plan, until its result arrives. */
  plan?: string;
  /** ExitPlanMode: its result holds the plan whole (and it applied). */
  planHeld?: boolean;
}

type Json = Record<string, unknown>;

/** The written texts of a call: [edit index, new text, replaced text] (a Write: index -1, no replaced text). */
function writtenTexts(tool: string, input: Json): [number, string, string | undefined][] {
  if (tool === 'Write') return typeof input.content === 'string' ? [[-1, input.content, undefined]] : [];
  const edits = tool === 'Edit' ? [input] : tool === 'MultiEdit' && Array.isArray(input.edits) ? (input.edits as unknown[]) : [];
  const out: [number, string, string | undefined][] = [];
  edits.forEach((edit, i) => {
    const e = edit as Json | null;
    if (e && typeof e === 'object' && typeof e.new_string === 'string') out.push([tool === 'Edit' ? 0 : i, e.new_string, typeof e.old_string === 'string' ? e.old_string : undefined]);
  });
  return out;
}

const WRITERS = new Set(['Write', 'Edit', 'MultiEdit']);

/** An old_string pass 1 pointed back to an earlier call's written text (written-texts.ts). */
interface Pointer {
  entry: SessionEntry;
  /** The pointing call, and the earlier call it names. */
  toolId: string;
  target: string;
  /** What the pointer says once the text it names goes: the replaced text of an applied edit. */
  applied: string;
}

/** A pointer stub of written-texts.ts: its size and the call it names. */
// (Before issue 16 the size was `N lines / S`: a log trimmed then is read alike.)
const POINTER = /^\[cmv: (\d+ lines)(?: \/ [^;\]]+)? elided; (?:the same text as|a passage of) the (?:content|new_string) of the earlier \w+ (\S+)\]$/;

export class SupersededInputs {
  private readonly calls = new Map<string, CallSeen>();
  private readonly pointers: Pointer[] = [];
  private readonly pending = new Map<string, Candidate[]>();
  private readonly candidates: Candidate[] = [];
  private readonly byTool = new Map<string, Candidate[]>();
  private readonly commands: Candidate[] = [];
  private pendingChars = 0;

  constructor(private readonly threshold: number) {}

  /** Notes the calls and results of a record as read, before pass 1 strips it. */
  note(record: JsonObject, entry: SessionEntry): void {
    for (const block of contentBlocks(record)) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') this.noteCall(block.id, block.name, (block.input ?? {}) as Json, entry);
      else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') this.noteResult(block.tool_use_id, block, entry);
    }
  }

  /** After pass 1 stripped the record: which texts it left as they were, and the old_strings it pointed back. */
  noteStripped(record: JsonObject, entry: SessionEntry): void {
    for (const block of contentBlocks(record)) {
      if (block.type !== 'tool_use' || typeof block.id !== 'string' || !block.input || typeof block.input !== 'object') continue;
      const input = block.input as Json;
      for (const candidate of this.byTool.get(block.id) ?? []) {
        const target = candidate.edit >= 0 && block.name === 'MultiEdit' ? (Array.isArray(input.edits) ? (input.edits[candidate.edit] as Json | undefined) : undefined) : input;
        const field = candidate.edit === -1 ? 'content' : candidate.edit === PROMPT ? 'prompt' : candidate.edit === COMMAND ? 'command' : 'new_string';
        candidate.kept = target?.[field] === candidate.text;
        candidate.onDisk = candidate.edit !== PROMPT && candidate.edit !== COMMAND && target?.[field] === stubToolInput(candidate.text);
      }
      const edits = block.name === 'MultiEdit' ? (Array.isArray(input.edits) ? input.edits : []) : [input];
      for (const edit of edits as (Json | null)[]) {
        const match = typeof edit?.old_string === 'string' ? POINTER.exec(edit.old_string) : null;
        if (match) this.pointers.push({ entry, toolId: block.id, target: match[2], applied: `[cmv: ${match[1]} replaced]` });
      }
    }
  }

  private noteCall(toolId: string, tool: string, input: Json, entry: SessionEntry): void {
    if (tool === 'ExitPlanMode') {
      this.calls.set(toolId, { use: entry, tool, plan: typeof input.plan === 'string' ? input.plan : undefined });
      return;
    }
    if (tool === 'Bash') {
      const command = input.command;
      if (typeof command !== 'string') return;
      this.calls.set(toolId, { use: entry, tool });
      for (const earlier of this.commands) if (earlier.answers.length < MAX_ANSWERS && command.includes(earlier.text)) earlier.answers.push({ toolId, kind: 'held' });
      const candidate: Candidate = { toolId, tool, path: '', edit: COMMAND, text: command, answers: [], partial: [] };
      if (command.length > this.threshold && !isStub(command) && this.remember(candidate)) {
        this.commands.push(candidate);
        if (this.commands.length > MAX_PENDING_COMMANDS) this.commands.shift();
      }
      return;
    }
    if (PROMPT_TOOLS.has(tool)) {
      const prompt = input.prompt;
      this.calls.set(toolId, { use: entry, tool });
      if (typeof prompt === 'string' && prompt.length > this.threshold && !isStub(prompt)) this.remember({ toolId, tool, path: '', edit: PROMPT, text: prompt, answers: [], partial: [] });
      return;
    }
    const path = typeof input.file_path === 'string' ? input.file_path : undefined;
    if (!WRITERS.has(tool) || !path) return;
    this.calls.set(toolId, { use: entry, tool });
    const texts = writtenTexts(tool, input);
    // What this call does to the texts earlier calls wrote to the same file.
    for (const earlier of this.pending.get(path) ?? []) {
      if (earlier.answers.length >= MAX_ANSWERS) continue;
      let kind: Supersession | undefined;
      if (texts.some(([, text]) => text.includes(earlier.text))) kind = 'held';
      else if (tool === 'Write') kind = 'rewritten';
      else if (texts.some(([, , old]) => old !== undefined && old.includes(earlier.text))) kind = 'replaced';
      if (kind) earlier.answers.push({ toolId, kind });
      else if (tool !== 'Write' && earlier.partial.length < MAX_ANSWERS) {
        // Old strings that share a line with the earlier text may hold runs of it (decided in pass 2).
        const olds = texts.map(([, , old]) => old).filter((old): old is string => old !== undefined && old.length >= MIN_REPLACED_RUN_CHARS && sharesLine(old, earlier.text));
        const chars = olds.reduce((n, old) => n + old.length, 0);
        if (olds.length > 0 && this.pendingChars + chars <= MAX_PENDING_CHARS) {
          earlier.partial.push({ toolId, tool, olds });
          this.pendingChars += chars;
        }
      }
    }
    for (const [edit, text, old] of texts) {
      const large = tool === 'Write' ? text.length > this.threshold : text.length + (old?.length ?? 0) > this.threshold;
      if (!large || text.length < MIN_SAVED_CHARS || isStub(text)) continue;
      const candidate: Candidate = { toolId, tool, path, edit, text, answers: [], partial: [] };
      if (this.remember(candidate)) {
        const list = this.pending.get(path) ?? [];
        list.push(candidate);
        if (list.length > MAX_PENDING_PER_FILE) list.shift();
        this.pending.set(path, list);
      }
    }
  }

  private remember(candidate: Candidate): boolean {
    if (this.pendingChars + candidate.text.length > MAX_PENDING_CHARS) return false;
    this.candidates.push(candidate);
    this.byTool.set(candidate.toolId, [...(this.byTool.get(candidate.toolId) ?? []), candidate]);
    this.pendingChars += candidate.text.length;
    return true;
  }

  private noteResult(toolId: string, block: JsonObject, entry: SessionEntry): void {
    const call = this.calls.get(toolId);
    if (!call) return;
    call.result = entry;
    call.applied = block.is_error !== true;
    if (call.tool !== 'ExitPlanMode' || !call.applied) return;
    const text = contentText(block.content);
    const plan = call.plan?.trim();
    call.planHeld = plan !== undefined && plan.length >= MIN_SAVED_CHARS && !isStub(plan) && text.includes(plan);
    // A plan file written before the plan was approved: the result holds its text.
    for (const list of this.pending.values()) {
      for (const earlier of list) if (earlier.answers.length < MAX_ANSWERS && text.includes(earlier.text)) earlier.answers.push({ toolId, kind: 'plan' });
    }
  }

  /**
   * Rewrites of the lines Claude Code sends that hold a superseded text or a plan its result
   * repeats, by entry; each returns how many texts and plans it stubbed. `sent`: the messages in
   * the order Claude Code sends them.
   */
  rewrites(sent: readonly SessionEntry[]): Map<SessionEntry, (record: JsonObject) => LineStubbed> {
    const position = new Map<SessionEntry, number>();
    sent.forEach((entry, i) => position.set(entry, i));
    const at = (entry: SessionEntry | undefined) => (entry ? position.get(entry) : undefined);
    const byEntry = new Map<SessionEntry, LineStubs>();
    const slot = (entry: SessionEntry) => {
      let s = byEntry.get(entry);
      if (!s) byEntry.set(entry, (s = { stubs: new Map(), plans: new Set(), repoints: [], quoted: new Set(), replacedRuns: new Map() }));
      return s;
    };
    // A text a failed edit points back to stays: that old_string has no other copy (an applied
    // edit's pointer reads as its replaced text instead, which it is).
    const pointedByFailed = new Set(this.pointers.filter((p) => this.calls.get(p.toolId)?.applied !== true).map((p) => p.target));
    const going = new Set<Candidate>();
    const goingIds = new Set<string>();
    // Texts a going text points to as holding it: they stay as they are.
    const heldTargets = new Set<string>();
    for (const candidate of this.candidates) {
      const own = this.calls.get(candidate.toolId);
      const from = at(own?.use);
      if (!own || from === undefined || own.use.record !== 0 || pointedByFailed.has(candidate.toolId)) continue;
      const answer = candidate.answers.find((a) => {
        const later = this.calls.get(a.toolId);
        // The later call applied (a command holds its text whatever its outcome), and Claude Code
        // sends it (with its result) after the earlier one.
        if (!later || !(later.applied || candidate.edit === COMMAND) || (at(later.use) ?? -1) <= from || at(later.result) === undefined) return false;
        // A text an earlier call failed to write was never in the file: only a later copy answers for it.
        return a.kind === 'held' || a.kind === 'plan' || own.applied === true;
      });
      if (!answer) continue;
      const stubs = slot(own.use).stubs;
      const edits = stubs.get(candidate.toolId) ?? new Map<number, string>();
      edits.set(candidate.edit, stubSuperseded(candidate.text, answer, this.calls.get(answer.toolId)!.tool, candidate.tool));
      stubs.set(candidate.toolId, edits);
      going.add(candidate);
      goingIds.add(candidate.toolId);
      if (answer.kind === 'held') heldTargets.add(answer.toolId);
    }
    // Passages later texts quote from earlier ones that stand (quoted-passages.ts), in the order sent.
    const budget = { chars: MAX_PASSAGE_CHARS };
    type Standing = { candidate: Candidate; position: number; text: string; lines?: ReadonlySet<string>; onDisk?: boolean };
    const standing: Standing[] = [];
    const standingByPath = new Map<string, Standing[]>();
    for (const candidate of this.candidates) {
      const own = this.calls.get(candidate.toolId);
      const position = at(own?.use);
      if (!own || position === undefined || going.has(candidate) || candidate.edit === COMMAND) continue;
      // A text the file on disk holds whole (files present) is a stub in the trimmed log: quoted
      // from, the passage is on disk, in the file its call names.
      if (candidate.onDisk === true && candidate.kept !== true) {
        const stands: Standing = { candidate, position, text: candidate.text, onDisk: true };
        standing.push(stands);
        standingByPath.set(candidate.path, [...(standingByPath.get(candidate.path) ?? []), stands].slice(-MAX_PENDING_PER_FILE));
        continue;
      }
      // Runs of the text a later applied edit replaced: none of a text that failed (it was never in
      // the file), a failed edit points back to, or a going text names as holding it.
      const replacing =
        own.use.record === 0 && own.applied === true && !pointedByFailed.has(candidate.toolId) && !heldTargets.has(candidate.toolId) && candidate.edit !== PROMPT
          ? candidate.partial.filter((p) => {
              const later = this.calls.get(p.toolId);
              return later?.applied === true && (at(later.use) ?? -1) > position && at(later.result) !== undefined;
            })
          : [];
      const replacers: QuotedSource[] = replacing.flatMap((p) => p.olds.map((old) => ({ toolId: p.toolId, tool: p.tool, text: old, lines: lineSet(old) })));
      if (candidate.kept !== true) {
        // With the files present, a text the disk holds in part: its lines the disk no longer holds
        // stayed in pass 1; the runs of them a later edit replaced go, from the line as it stands.
        if (candidate.onDisk !== true && replacers.length > 0) {
          const s = slot(own.use);
          s.replacedRuns.set(`${candidate.toolId} ${candidate.edit}`, replacers);
          goingIds.add(candidate.toolId);
        }
        continue;
      }
      let text = candidate.text;
      if (replacers.length > 0) {
        const cut = pointQuotedRuns(text, replacers, budget, stubReplacedRun, MIN_REPLACED_RUN_CHARS);
        if (cut) {
          const stubs = slot(own.use).stubs;
          stubs.set(candidate.toolId, (stubs.get(candidate.toolId) ?? new Map<number, string>()).set(candidate.edit, cut));
          goingIds.add(candidate.toolId);
          text = cut;
        }
      }
      if (own.use.record === 0 && !pointedByFailed.has(candidate.toolId) && !heldTargets.has(candidate.toolId)) {
        const near = candidate.edit === PROMPT ? standing.slice(-MAX_PROMPT_SOURCES) : (standingByPath.get(candidate.path) ?? []);
        const sources = near
          .filter((s) => s.position < position)
          .map((s) => ({ toolId: s.candidate.toolId, tool: s.candidate.tool, text: s.text, onDisk: s.onDisk, lines: () => (s.lines ??= new Set(s.text.split('\n'))) }));
        const pointed = pointQuotedRuns(text, sources, budget);
        if (pointed) {
          const stubs = slot(own.use).stubs;
          stubs.set(candidate.toolId, (stubs.get(candidate.toolId) ?? new Map<number, string>()).set(candidate.edit, pointed));
          slot(own.use).quoted.add(`${candidate.toolId} ${candidate.edit}`);
          goingIds.add(candidate.toolId);
          text = pointed;
        }
      }
      if (candidate.edit !== PROMPT) {
        const stands: Standing = { candidate, position, text };
        standing.push(stands);
        const ofFile = standingByPath.get(candidate.path) ?? [];
        ofFile.push(stands);
        if (ofFile.length > MAX_PENDING_PER_FILE) ofFile.shift();
        standingByPath.set(candidate.path, ofFile);
      }
    }
    for (const pointer of this.pointers) if (goingIds.has(pointer.target) && pointer.entry.record === 0) slot(pointer.entry).repoints.push(pointer);
    for (const [toolId, call] of this.calls) {
      if (call.planHeld && call.use.record === 0 && at(call.use) !== undefined && at(call.result) !== undefined) slot(call.use).plans.add(toolId);
    }
    const rewrites = new Map<SessionEntry, (record: JsonObject) => LineStubbed>();
    for (const [entry, stubs] of byEntry) rewrites.set(entry, (record) => applyStubs(record, stubs));
    return rewrites;
  }
}

/** What a rewrite stubbed: written texts, plans, and pointers back to a text that went, reworded. */
export interface LineStubbed {
  texts: number;
  plans: number;
  repointed: number;
  /** Texts whose passages point back to an earlier call. */
  quoted: number;
}

/** What pass 2 changes in one line. */
interface LineStubs {
  /** Stubs of written texts, by tool id and edit (-1: a Write's content). */
  stubs: Map<string, Map<number, string>>;
  /** ExitPlanMode calls whose plan goes. */
  plans: Set<string>;
  /** Old_strings of applied edits pointing back to a text that goes or changes. */
  repoints: Pointer[];
  /** Which of `stubs` (tool id and edit) are texts with passages pointing back, not whole stubs. */
  quoted: Set<string>;
  /** By tool id and edit: the old_strings of later applied edits whose runs go from the text as the line holds it (files present, held in part). */
  replacedRuns: Map<string, QuotedSource[]>;
}

/** Sets `field` of `target` to `stub` when it is a text not stubbed yet and the stub is shorter. */
function stubField(target: Json, field: string, stub: string): boolean {
  const value = target[field];
  if (typeof value !== 'string' || isStub(value) || stub.length >= value.length) return false;
  target[field] = stub;
  return true;
}

function applyStubs(record: JsonObject, { stubs, plans, repoints, quoted, replacedRuns }: LineStubs): LineStubbed {
  const done = { texts: 0, plans: 0, repointed: 0, quoted: 0 };
  for (const block of contentBlocks(record)) {
    if (block.type !== 'tool_use' || typeof block.id !== 'string' || !block.input || typeof block.input !== 'object') continue;
    const input = block.input as Json;
    for (const repoint of repoints) {
      if (repoint.toolId !== block.id) continue;
      const edits = block.name === 'MultiEdit' ? (Array.isArray(input.edits) ? input.edits : []) : [input];
      for (const edit of edits as (Json | null)[]) {
        const old = edit?.old_string;
        if (edit && typeof old === 'string' && POINTER.exec(old)?.[2] === repoint.target) {
          edit.old_string = repoint.applied;
          done.repointed++;
        }
      }
    }
    if (plans.has(block.id) && typeof input.plan === 'string' && stubField(input, 'plan', stubPlan(input.plan))) done.plans++;
    for (const [edit, stub] of stubs.get(block.id) ?? []) {
      const count = quoted.has(`${block.id} ${edit}`) ? 'quoted' : 'texts';
      if (edit === -1 || edit === PROMPT || edit === COMMAND) {
        if (stubField(input, edit === -1 ? 'content' : edit === PROMPT ? 'prompt' : 'command', stub)) done[count]++;
        continue;
      }
      const target = block.name === 'MultiEdit' ? (Array.isArray(input.edits) ? (input.edits[edit] as Json | undefined) : undefined) : input;
      if (target && typeof target === 'object' && stubField(target, 'new_string', stub)) done[count]++;
    }
    for (const [key, replacers] of replacedRuns) {
      const [toolId, at] = key.split(' ');
      if (toolId !== block.id) continue;
      const edit = Number(at);
      const target = edit === -1 || block.name !== 'MultiEdit' ? input : Array.isArray(input.edits) ? (input.edits[edit] as Json | undefined) : undefined;
      const field = edit === -1 ? 'content' : 'new_string';
      const value = target?.[field];
      if (!target || typeof value !== 'string') continue;
      const cut = pointQuotedRuns(value, replacers, { chars: MAX_PASSAGE_CHARS }, stubReplacedRun, MIN_REPLACED_RUN_CHARS);
      if (cut) {
        target[field] = cut;
        done.texts++;
      }
    }
  }
  return done;
}

/** Whether `a` and `b` share a line of some length (a cheap check before looking for runs). */
function sharesLine(a: string, b: string): boolean {
  for (const line of a.split('\n')) if (line.trim().length >= 20 && b.includes(line)) return true;
  return false;
}

function lineSet(text: string): () => ReadonlySet<string> {
  let lines: ReadonlySet<string> | undefined;
  return () => (lines ??= new Set(text.split('\n')));
}

function lines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

const FIELD_OF: Record<string, string> = { Write: 'content', Edit: 'new_string', MultiEdit: 'new_string', Bash: 'command' };

/** The stub of a written text a later call answers for (it does not repeat the call's own file_path). */
export function stubSuperseded(text: string, answer: { toolId: string; kind: Supersession }, laterTool: string, ownTool: string): string {
  const size = `${lines(text)} lines`;
  const written = ownTool === 'Write' ? 'written' : 'new text';
  switch (answer.kind) {
    case 'held':
      return `[cmv: ${size} elided; the same text is in the ${FIELD_OF[laterTool] ?? 'input'} of the later ${laterTool} ${answer.toolId}]`;
    case 'rewritten':
      return `[cmv: ${size} ${written} elided; the later Write ${answer.toolId} replaced the whole file]`;
    case 'replaced':
      return `[cmv: ${size} ${written} elided; the later ${laterTool} ${answer.toolId} replaced all of it]`;
    case 'plan':
      return `[cmv: ${size} elided; the same text is in the result of the later ExitPlanMode ${answer.toolId} (the approved plan)]`;
  }
}

/** The stub of a plan whose approved result repeats it whole. */
export function stubPlan(plan: string): string {
  return `[cmv: the plan, ${lines(plan)} lines / ${formatSize(plan.length)}, elided; its result holds it whole]`;
}
