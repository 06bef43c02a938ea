// What the extractors share while they walk a session: the builder, the turn being read, the
// tasks the user asked for in it, and the errors still open with what would close them.

import { isAbsolute, relative } from 'node:path';
import type { DraftNode, GraphBuilder, Mention } from './graph-builder.js';

export interface OpenError {
  node: DraftNode;
  /** The shell command that failed, normalised: a green re-run of it fixes the error. */
  command?: string;
  /** The test runner that failed: a green run of the same runner fixes the error. */
  testRunner?: string;
  /** The file a failed tool call was about: a later successful call on it fixes the error. */
  file?: string;
  /** Files changed since the error: they are what fixed it, once it is fixed. */
  changedSince: DraftNode[];
}

export interface ExtractState {
  builder: GraphBuilder;
  turn: number;
  cwd?: string;
  goal?: DraftNode;
  project?: DraftNode;
  /** Tasks the user asked for in the current turn. */
  turnTasks: DraftNode[];
  /** Tasks (TodoWrite, TaskCreate) by their id in the tool's own numbering. */
  tasksById: Map<string, DraftNode>;
  openErrors: OpenError[];
  /** In-progress markers and completion markers seen in the current turn's replies. */
  signals: ReplySignals;
  /** Choices one side proposed ("I'd go with X", "I was thinking X") that the other has not yet answered. */
  proposals: Proposal[];
  /** Work the user asked for as a question this turn: a task once the reply does it. */
  asks: string[];
  /** The session's tools changed files (known before the walk): rules for real coding sessions apply. */
  toolSession?: boolean;
  /** Titles of issue-tracker items (beads) by id, from the tracker's own output. */
  issues?: Map<string, string>;
  /** The latest plan file written, for the ExitPlanMode that approves it. */
  planText?: string;
  /** The done task plan.written made for the latest plan file. */
  planTask?: DraftNode;
  /** The tasks of the latest TodoWrite list (each call sends the whole list). */
  todoList?: DraftNode[];
  /** The last turn in which the session's own task list (TodoWrite, TaskCreate/TaskUpdate) moved. */
  taskListTurn?: number;
}

export interface Proposal {
  node: DraftNode;
  by: 'user' | 'assistant';
  /** True when nothing but the proposal named the choice (a refusal removes it). */
  only: boolean;
  /** A course of action ("I'd split it ..."): kept only if the answer agrees. */
  tentative?: boolean;
}

export interface ReplySignals {
  completed: boolean;
  inProgress: DraftNode[];
  fixed: boolean;
  /** Files created or changed in this turn by tool calls. */
  changedFiles: DraftNode[];
  /** Tool calls that never got a result (an interrupted turn). */
  unanswered: number;
  /** Items of the turn's latest todo list that are not completed. */
  openTodos: number;
  /** Problems the reply stated in words this turn, still open: closed by work it reports after them. */
  statedErrors: OpenError[];
  /** Work the reply says is not started ("Pending: X", "X isn't built yet"); "Not started." alone names the asked work. */
  notStarted: DraftNode[];
  notStartedAtAll: boolean;
}

export function emptySignals(): ReplySignals {
  return { completed: false, inProgress: [], fixed: false, changedFiles: [], unanswered: 0, openTodos: 0, statedErrors: [], notStarted: [], notStartedAtAll: false };
}

/**
 * A path as the graph labels it: relative to the folder the tool ran in when inside it, else to the
 * session's project folder (`root`) when inside that (a session that moved into `todo-app/` and
 * wrote `../components/A.tsx` changed `components/A.tsx` of its project), exact otherwise.
 */
export function pathLabel(path: string, cwd: string | undefined, root?: string): string {
  const trimmed = path.trim();
  // A Windows client's paths (`C:\\Users\\me\\app\\src\\a.cs`, seen in 2.1.227 logs) read as relative on POSIX.
  if (WINDOWS_PATH.test(trimmed)) return windowsLabel(trimmed, cwd);
  if (!cwd || !isAbsolute(trimmed)) return trimmed.replace(/^\.\//, '');
  const rel = relative(cwd, trimmed);
  if (rel === '') return '.';
  if (!rel.startsWith('..') && !isAbsolute(rel)) return rel;
  return root && root !== cwd ? pathLabel(trimmed, root) : trimmed;
}

const WINDOWS_PATH = /^[A-Za-z]:[\\/]/;

/** A Windows path inside the project as its slash-separated relative path; drive letters and case compared loosely. */
function windowsLabel(path: string, cwd: string | undefined): string {
  const slash = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const p = slash(path);
  const root = cwd && WINDOWS_PATH.test(cwd.trim()) ? slash(cwd.trim()) : undefined;
  if (!root) return p;
  if (p.toLowerCase() === root.toLowerCase()) return '.';
  return p.toLowerCase().startsWith(`${root.toLowerCase()}/`) ? p.slice(root.length + 1) : p;
}

/** A file prose names, labelled as the tools label it: `/home/me/app/hello.sh` in the app is `hello.sh`. */
export function mentionFile(state: ExtractState, path: string, mention: Mention): DraftNode | undefined {
  return state.builder.mention('FILE', pathLabel(path, state.cwd), mention);
}

/** The parent a new task hangs from: the task the user asked for this turn, else the goal. */
export function parentTask(state: ExtractState): DraftNode | undefined {
  return state.turnTasks[0] ?? state.goal;
}

/**
 * The work a reply reports as done: completed TASKs under the turn's task. Not in a turn that moved
 * the session's own task list: the report then restates that list's items in finer steps.
 */
export function reportedDone(state: ExtractState, labels: Iterable<string>, uuid: string | undefined): void {
  state.signals.completed = true;
  if (state.taskListTurn === state.turn) return;
  for (const label of labels) state.builder.link(state.builder.mention('TASK', label, { confidence: 0.95, turn: state.turn, uuid, status: 'completed' }), parentTask(state), 'PART_OF');
}

/** Marks an open error fixed, crediting `by` and the files changed since it opened. */
export function closeError(state: ExtractState, open: OpenError, by: DraftNode | undefined, uuid?: string): void {
  const { builder } = state;
  builder.advance(open.node, 'completed', state.turn, uuid);
  builder.link(by, open.node, 'FIXES');
  for (const file of open.changedSince) builder.link(file, open.node, 'FIXES');
  state.openErrors.splice(state.openErrors.indexOf(open), 1);
}

/** Records a changed file against every open error (it may be what fixes them). */
export function noteChange(state: ExtractState, file: DraftNode): void {
  for (const open of state.openErrors) if (!open.changedSince.includes(file)) open.changedSince.push(file);
  noteChangedFile(state, file);
}

/** The reply did work: it reported work done or a fix, or changed files. */
export function workDone(state: ExtractState): boolean {
  const { signals } = state;
  return signals.completed || signals.fixed || signals.changedFiles.length > 0;
}

/** Records a file the turn changed, once. */
export function noteChangedFile(state: ExtractState, file: DraftNode): void {
  if (!state.signals.changedFiles.includes(file)) state.signals.changedFiles.push(file);
}
