// Grounded extraction: what the tool calls themselves prove. Files read, changed and created;
// the task list with its exact status history (TodoWrite, TaskCreate/TaskUpdate); subagents and
// their reports; the user's answers to questions; and failed calls, fixed by a later success.

import type { ToolStep } from './session-turns.js';
import type { NodeStatus } from './model.js';
import type { DraftNode } from './graph-builder.js';
import { errorLine } from './bash-facts.js';
import { clipWords, normaliseLabel, sentences } from './labels.js';
import { closeError, noteChange, parentTask, pathLabel, type ExtractState } from './extract-state.js';

export const READ_TOOLS = new Set(['Read', 'NotebookRead']);
export const CHANGE_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);
export const SEARCH_TOOLS = new Set(['Glob', 'Grep', 'LS']);
const TODO_STATUS: Record<string, NodeStatus> = { pending: 'pending', in_progress: 'in_progress', completed: 'completed' };

/** The file paths a tool call names (read, changed or searched). */
export function toolPaths(name: string, input: Record<string, unknown>): string[] {
  const paths: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.trim() !== '') paths.push(v.trim());
  };
  if (READ_TOOLS.has(name) || CHANGE_TOOLS.has(name)) {
    add(input.file_path);
    add(input.notebook_path);
  } else if (SEARCH_TOOLS.has(name)) {
    add(input.path);
    // A Glob for one exact name ("package.json") looks that file up.
    if (name === 'Glob' && typeof input.pattern === 'string' && !/[*?[\]{}]/.test(input.pattern)) add(input.pattern);
  }
  return paths;
}

/**
 * A tool call the client refused for how it was made ("File has not been read yet", "String to
 * replace not found", "No changes to make"): the model retries at once, nothing of the project
 * went wrong. Wordings of Claude Code's file tools (seen in 1.0.x to 2.1.x logs; Read of a folder
 * answers "EISDIR: illegal operation on a directory" in 2.1.50 logs).
 */
export const TOOL_PROTOCOL =
  /File has not been read yet|String to replace not found|No changes to make|Found \d+ matches of the string|File has been (?:unexpectedly )?modified since|File does not exist|exceeds maximum allowed (?:tokens|size)|File content \(\d+|EISDIR: illegal operation on a directory/i;

export function fileFacts(step: ToolStep, paths: string[], state: ExtractState): void {
  const { builder, turn } = state;
  const changing = CHANGE_TOOLS.has(step.name);
  const rejected = /user doesn't want to proceed|was rejected|interrupted by user/i.test(step.result);
  for (const path of paths) {
    const label = pathLabel(path, step.cwd ?? state.cwd, state.cwd);
    const ok = step.answered && !step.isError;
    const created = step.name === 'Write' && step.sidecar?.type === 'create';
    const file = builder.mention('FILE', label, {
      confidence: 1,
      turn,
      uuid: step.uuid,
      status: changing && ok ? 'modified' : undefined,
      detail: created ? 'created' : undefined,
      fuzzy: false,
    });
    if (!file) continue;
    if (!step.answered) state.signals.unanswered++;
    if (changing && ok) {
      for (const task of state.turnTasks) builder.link(file, task, 'IMPLEMENTS');
      noteChange(state, file);
    }
    if (ok) {
      for (const open of state.openErrors.filter((o) => o.file === label)) closeError(state, open, file, step.uuid);
    } else if (step.isError && !rejected && !TOOL_PROTOCOL.test(step.result)) {
      const error = builder.mention('ERROR', `${step.name} ${label}: ${errorLine(step.result.replace(/<\/?tool_use_error>/g, ''))}`, {
        confidence: 0.7,
        turn,
        uuid: step.resultUuid ?? step.uuid,
        status: 'failed',
        fuzzy: false,
      });
      if (error && !state.openErrors.some((o) => o.node === error)) state.openErrors.push({ node: error, file: label, changedSince: [] });
      builder.link(error, file, 'RELATED_TO');
    }
  }
}

export function todoFacts(step: ToolStep, state: ExtractState): void {
  const todos = Array.isArray(step.input.todos) ? (step.input.todos as Record<string, unknown>[]) : [];
  state.signals.openTodos = todos.filter((t) => t && t.status !== 'completed').length;
  const listed: DraftNode[] = [];
  for (const todo of todos) {
    if (!todo || typeof todo.content !== 'string') continue;
    const status = TODO_STATUS[String(todo.status)] ?? 'pending';
    const id = typeof todo.id === 'string' || typeof todo.id === 'number' ? `todo:${todo.id}` : undefined;
    const known = id ? state.tasksById.get(id) : undefined;
    const task = known ?? state.builder.mention('TASK', todo.content, { confidence: 1, turn: state.turn, uuid: step.uuid });
    if (!task) continue;
    state.builder.advance(task, status, state.turn, step.uuid);
    if (known) known.mentions.push(state.turn);
    if (id) state.tasksById.set(id, task);
    state.builder.link(task, parentTask(state), 'PART_OF');
    listed.push(task);
  }
  // TodoWrite sends the whole list: an open todo a later list leaves out was dropped, not left to do.
  for (const old of state.todoList ?? []) {
    if (!listed.includes(old) && (old.status === 'pending' || old.status === 'in_progress') && old.rules.every((r) => r === 'task.todowrite')) state.builder.remove(old);
  }
  state.todoList = listed;
}

export function taskToolFacts(step: ToolStep, state: ExtractState): void {
  taskToolStatus(step, state);
  state.signals.openTodos = [...state.tasksById].filter(([id, t]) => id.startsWith('task:') && t.status !== 'completed').length;
}

function taskToolStatus(step: ToolStep, state: ExtractState): void {
  const { builder, turn } = state;
  if (step.name === 'TaskCreate') {
    if (typeof step.input.subject !== 'string' || (step.answered && step.isError)) return;
    const task = builder.mention('TASK', step.input.subject, { confidence: 1, turn, uuid: step.uuid, status: 'pending' });
    const sidecarTask = step.sidecar?.task as Record<string, unknown> | undefined;
    const id = typeof sidecarTask?.id === 'string' ? sidecarTask.id : /Task #(\d+)/.exec(step.result)?.[1];
    if (task && id) state.tasksById.set(`task:${id}`, task);
    builder.link(task, parentTask(state), 'PART_OF');
    return;
  }
  const id = step.input.taskId;
  const task = typeof id === 'string' || typeof id === 'number' ? state.tasksById.get(`task:${id}`) : undefined;
  if (!task || (step.answered && step.isError)) return;
  // TaskUpdate can delete a task (status "deleted") or rename it (subject): the list says so.
  if (step.input.status === 'deleted') {
    builder.remove(task);
    return;
  }
  if (typeof step.input.subject === 'string' && step.input.subject.trim() !== '') task.label = normaliseLabel(step.input.subject);
  const status = TODO_STATUS[String(step.input.status)];
  if (!status) return;
  builder.advance(task, status, turn, step.uuid);
  task.mentions.push(turn);
}

export function agentFacts(step: ToolStep, state: ExtractState): void {
  const description = typeof step.input.description === 'string' ? step.input.description : typeof step.input.prompt === 'string' ? clipWords(step.input.prompt, 10) : '';
  if (!description) return;
  const kind = typeof step.input.subagent_type === 'string' ? step.input.subagent_type : 'agent';
  const status: NodeStatus = !step.answered ? 'in_progress' : step.isError ? 'failed' : /^Async agent launched/.test(step.result) ? 'in_progress' : 'completed';
  // 2.1.332 wraps a report: "<tools-used-before-summary>Bash, Read</tools-used-before-summary>" and a
  // "[Subagent hand-back]" frame (seen in the 2.1.332 binary); neither is the report.
  const text = step.result.replace(/<tools-used-before-summary>[\s\S]*?<\/tools-used-before-summary>/g, '').replace(/^\s*\[Subagent hand-back\][^\n]*\n?/gm, '');
  const report = status === 'completed' ? reportSummary(text) : undefined;
  const agent = state.builder.mention('AGENT', description, {
    confidence: 1,
    turn: state.turn,
    uuid: step.uuid,
    status,
    detail: report ? `${kind}: ${report}` : kind,
    replaceDetail: report !== undefined,
  });
  state.builder.link(agent, parentTask(state), 'PART_OF');
}

/** The first sentence of a subagent's report that says something (not "Perfect! Now I have ..."). */
function reportSummary(report: string): string | undefined {
  for (const sentence of sentences(report)) {
    if (/^(?:perfect|great|excellent|now i|let me|based on|i now|i have|i've|ok|okay|summary|here)\b/i.test(sentence) && sentence.length < 90) continue;
    const text = normaliseLabel(clipWords(sentence, 20));
    if (text.length > 8) return text;
  }
  return undefined;
}

/** AskUserQuestion: each answer is the user's decision on the question asked. */
export function answerFacts(step: ToolStep, state: ExtractState): void {
  const questions = Array.isArray(step.input.questions) ? (step.input.questions as Record<string, unknown>[]) : [];
  for (const m of step.result.matchAll(/"([^"]{3,300})"="([^"]{1,200})"/g)) {
    const asked = questions.find((q) => q && q.question === m[1]);
    const header = typeof asked?.header === 'string' ? asked.header : '';
    const options = Array.isArray(asked?.options) ? (asked.options as Record<string, unknown>[]) : [];
    const picked = options.find((o) => o && o.label === m[2]);
    const description = picked?.description;
    // "Credo + Dialyxir + mix_audit (Skip Sobelow)": what the option leaves out is what it was chosen without ("not Sobelow").
    const why =
      typeof description === 'string' && description.split(/\s+/).length <= 10 ? ` (${description.replace(/^(?:skip|skips|skipping|without|excluding|exclude|excludes|drop|drops)\s+/i, 'not ')})` : '';
    // What it was chosen over: the other options offered ("X over Y"); an answer of the user's own words turned down every one.
    const others = options
      .map((o) => o?.label)
      .filter((l): l is string => typeof l === 'string' && l !== m[2] && l.split(/\s+/).length <= 6)
      .map((l) => l.replace(/\s*\((?:recommended|default)\)\s*/i, ''));
    const over = others.length > 0 && others.length <= 3 ? ` ${picked ? 'over' : 'instead of'} ${others.join(' or ')}` : '';
    const label = `${header && !m[2].toLowerCase().includes(header.toLowerCase()) ? `${header}: ` : ''}${m[2]}${why}${over}`;
    const decision = state.builder.mention('DECISION', label, { confidence: 0.95, turn: state.turn, uuid: step.resultUuid ?? step.uuid, detail: clipWords(m[1], 12) });
    state.builder.link(decision, parentTask(state), 'RELATED_TO');
  }
}
