// Pass 2, one record at a time: keep what carries understanding, stub what the environment can
// give back, drop what the API never sees. Pure apart from what the caller injects: `fileHolds`
// (the disk) and `written` (what earlier records of the same pass kept).

import { dropDefaultValues } from './defaults.js';
import type { TrimOptions, RemovalCounts } from './options.js';
import { stubToolText, shortConfirmation, shortenConfirmation, CONFIRMING_TOOLS, stubImage, stubToolInput, stubReplacedText, stubRepeatedText, clipError, isStub, type ToolCall } from './stubs.js';
import { digestOf, stubEditErrorEcho } from './error-echo.js';
import type { WrittenTexts } from './written-texts.js';
import { contentText } from '../session/payload.js';

type Json = Record<string, unknown>;

export interface StripContext {
  options: TrimOptions;
  counts: RemovalCounts;
  /** Tool calls seen so far, by id: their results come later in the file. */
  calls: Map<string, ToolCall>;
  /** True when the file at `path` on disk contains `text` (so a large input can be stubbed). */
  fileHolds: (path: string, text: string) => boolean;
  /** The lines of the file at `path`, when known: texts with a line it lacks are not asked about. */
  fileLines?: (path: string) => ReadonlySet<string> | undefined;
  /** The working directory of the record being stripped, for the paths stubs show. */
  cwd?: string;
  /** Texts earlier calls wrote and the trim kept verbatim; absent: old_strings are never pointed back. */
  written?: WrittenTexts;
  /** The uuid of the record being stripped. */
  uuid?: string;
}

/** Tools whose results are the model's own understanding (subagent reports, plans, answers): never stubbed. */
export const KEEP_RESULTS = new Set(['Task', 'Agent', 'TodoWrite', 'TodoRead', 'ExitPlanMode', 'AskUserQuestion', 'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet']);

const SUMMARY_INPUT_KEYS = ['file_path', 'notebook_path', 'path', 'pattern', 'command', 'url', 'query', 'glob', 'offset', 'limit', 'bash_id', 'shell_id', 'description', 'subagent_type'];

export function summariseInput(input: unknown): Json {
  const summary: Json = {};
  if (!input || typeof input !== 'object') return summary;
  for (const key of SUMMARY_INPUT_KEYS) {
    const value = (input as Json)[key];
    if (typeof value === 'string') summary[key] = value.length > 400 ? value.slice(0, 400) : value;
    else if (typeof value === 'number') summary[key] = value;
  }
  return summary;
}

/** Task-list tools whose confirmations repeat what their call sets (stubs.ts, CONFIRMATION_RULES); their results are otherwise kept. */
const TASK_TOOLS = new Set(['TaskCreate', 'TaskUpdate']);

function shortenTaskConfirmation(block: Json, call: ToolCall, ctx: StripContext): boolean {
  if (block.is_error === true || typeof block.content !== 'string') return false;
  const short = shortenConfirmation(call.name, block.content, call.input);
  if (short === undefined) return false;
  block.content = short;
  ctx.counts.confirmationsShortened++;
  return true;
}

function stripToolResult(block: Json, ctx: StripContext): boolean {
  const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
  const call = ctx.calls.get(id);
  if (call && TASK_TOOLS.has(call.name)) return shortenTaskConfirmation(block, call, ctx);
  if (call && KEEP_RESULTS.has(call.name)) return false;
  const isError = block.is_error === true;
  if (isError && Array.isArray(call?.input.oldStrings) && typeof block.content === 'string') {
    const echo = stubEditErrorEcho(block.content, call.input.oldStrings as string[]);
    if (echo) {
      block.content = echo;
      ctx.counts.errorEchoesStubbed++;
      return true;
    }
  }
  const content = block.content;
  let changed = false;
  let parts: unknown[] | undefined = Array.isArray(content) ? content : undefined;

  // Images inside results (Read of a PNG, screenshots from MCP tools) can be fetched again.
  if (parts && parts.some((p) => (p as Json)?.type === 'image')) {
    parts = parts.map((p) => {
      const part = p as Json;
      if (part?.type !== 'image') return p;
      const source = part.source as Json | undefined;
      ctx.counts.toolResultImages++;
      changed = true;
      return { type: 'text', text: stubImage(call, typeof source?.media_type === 'string' ? source.media_type : undefined, typeof source?.data === 'string' ? source.data.length : 0) };
    });
  }

  const text = parts ? contentText(parts) : contentText(content);
  if (isError) {
    if (text.length > ctx.options.maxErrorChars) {
      block.content = clipError(text, ctx.options.maxErrorChars);
      ctx.counts.errorsClipped++;
      return true;
    }
  } else {
    // An edit's confirmation, under the threshold too: the snippet and the path its call names say nothing new.
    const textOnly = !(parts && parts.some((p) => (p as Json)?.type !== 'text'));
    const short = call && CONFIRMING_TOOLS.has(call.name) && textOnly && !isStub(text) ? shortConfirmation(call, text, ctx.cwd) : undefined;
    if (short) {
      block.content = short;
      ctx.counts[isStub(short) ? 'toolResultsStubbed' : 'confirmationsShortened']++;
      return true;
    }
    if (text.length > ctx.options.threshold && !isStub(text)) {
      const stub = stubToolText(call, text, isError, ctx.cwd);
      if (stub.length < text.length) {
        const images = parts ? parts.filter((p) => (p as Json)?.type === 'text' && isStub(String((p as Json).text))) : [];
        block.content = images.length > 0 ? [{ type: 'text', text: stub }, ...images] : stub;
        ctx.counts.toolResultsStubbed++;
        return true;
      }
    }
  }
  if (changed) block.content = parts;
  return changed;
}

/** A run of lines shorter than this is kept even when the file holds it: its stub would save little. */
const MIN_HELD_RUN_CHARS = 200;

/**
 * A written text the file on disk no longer holds whole (a later edit changed part of it): each
 * run of whole lines the file still holds, in one piece, is stubbed; the lines it no longer holds
 * stay, so what the disk cannot give back is still there. Undefined when no run is worth a stub.
 */
function stubHeldRuns(text: string, path: string, ctx: StripContext): string | undefined {
  const lines = text.split('\n');
  // Where the file's lines are known, a run may only span lines the file has (whole): `reach[k]`
  // is the last line of the stretch of such lines that line k is in, so most asks are never made.
  const fileLines = ctx.fileLines?.(path);
  const reach = new Array<number>(lines.length).fill(lines.length - 1);
  if (fileLines) {
    for (let k = lines.length - 1; k >= 0; k--) reach[k] = !fileLines.has(lines[k]) ? k - 1 : k === lines.length - 1 ? k : reach[k + 1];
  }
  const held = (from: number, to: number) => to <= reach[from] && ctx.fileHolds(path, lines.slice(from, to + 1).join('\n'));
  const out: string[] = [];
  let elided = false;
  for (let i = 0; i < lines.length;) {
    // The shortest run from here worth a stub; if the file does not hold it, line i stays.
    let end = i;
    let chars = lines[i].length;
    while (chars < MIN_HELD_RUN_CHARS && end + 1 < lines.length) chars += lines[++end].length + 1;
    if (chars < MIN_HELD_RUN_CHARS || !held(i, end)) {
      out.push(lines[i++]);
      continue;
    }
    // Held runs only shrink as they grow: the longest is found by halving.
    let [lo, hi] = [end, reach[i]];
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (held(i, mid)) lo = mid;
      else hi = mid - 1;
    }
    out.push(stubToolInput(lines.slice(i, lo + 1).join('\n')));
    elided = true;
    i = lo + 1;
  }
  const stubbed = out.join('\n');
  return elided && stubbed.length < text.length ? stubbed : undefined;
}

/** Write content (or a notebook cell): stubbed when the file holds it, else its runs the file holds. */
function stubInputField(input: Json, field: string, path: string | undefined, ctx: StripContext): boolean {
  const value = input[field];
  if (typeof value !== 'string' || value.length <= ctx.options.threshold || isStub(value) || !path) return false;
  if (ctx.fileHolds(path, value)) {
    input[field] = stubToolInput(value);
    ctx.counts.toolInputsStubbed++;
    return true;
  }
  const partly = stubHeldRuns(value, path, ctx);
  if (!partly) return false;
  input[field] = partly;
  ctx.counts.heldRunsStubbed++;
  return true;
}

/**
 * An edit whose strings together pass the threshold, applied (the file on disk holds its new
 * text): both strings are stubbed, each only where the stub is shorter. A deletion (empty new
 * text) cannot be checked against the file, so it stays.
 */
function stubEdit(edit: Json, path: string | undefined, ctx: StripContext): boolean {
  const before = edit.old_string;
  const after = edit.new_string;
  if (typeof before !== 'string' || typeof after !== 'string' || after === '' || !path) return false;
  if (before.length + after.length <= ctx.options.threshold || isStub(after)) return false;
  if (!ctx.fileHolds(path, after)) return false;
  let changed = false;
  const newStub = stubToolInput(after);
  const stubs: [string, string][] = [
    ['new_string', newStub],
    ['old_string', stubReplacedText(before, newStub.length < after.length ? 'beside' : 'whole')],
  ];
  for (const [field, stub] of stubs) {
    if (stub.length < (edit[field] as string).length) {
      edit[field] = stub;
      changed = true;
    }
  }
  if (changed) ctx.counts.toolInputsStubbed++;
  return changed;
}

/**
 * An edit the file no longer holds whole: of its new_string, the runs of lines the file still
 * holds are stubbed, or, when none is, the whole text is remembered for the edits after it. Its
 * old_string, when it repeats text an earlier call wrote (and the trim kept), points back to that
 * call; otherwise, when the file holds runs of the new text (so the edit was applied, and the old
 * text is gone from the file as after any applied edit), it is stubbed as replaced text.
 */
function stubOrRemember(edit: Json, path: string | undefined, call: { id: string; tool: string }, ctx: StripContext): boolean {
  if (stubEdit(edit, path, ctx)) return true;
  if (!path) return false;
  let changed = false;
  let appliedInPart = false;
  const before = edit.old_string;
  const after = edit.new_string;
  if (typeof before === 'string' && typeof after === 'string' && after !== '' && before.length + after.length > ctx.options.threshold && !isStub(after)) {
    const partly = stubHeldRuns(after, path, ctx);
    if (partly) {
      edit.new_string = partly;
      ctx.counts.heldRunsStubbed++;
      changed = true;
      appliedInPart = true;
    }
  }
  if (typeof before === 'string' && !isStub(before)) {
    const earlier = ctx.written && ctx.uuid && before.length > ctx.options.threshold ? ctx.written.find(path, before, ctx.uuid) : undefined;
    const repeated = earlier && stubRepeatedText(before, earlier);
    const replaced = appliedInPart ? stubReplacedText(before, 'in part') : undefined;
    if (repeated && repeated.length < before.length) {
      edit.old_string = repeated;
      ctx.counts.repeatedTextsStubbed++;
      changed = true;
    } else if (replaced && replaced.length < before.length) {
      edit.old_string = replaced;
      ctx.counts.toolInputsStubbed++;
      changed = true;
    }
  }
  if (edit.new_string === after) remember(path, after, call, ctx);
  return changed;
}

/** A large text a call wrote and the trim keeps verbatim, for later edits that repeat it. */
function remember(path: string, text: unknown, call: { id: string; tool: string }, ctx: StripContext): void {
  if (!ctx.written || !ctx.uuid || !call.id || typeof text !== 'string' || text.length <= ctx.options.threshold || isStub(text)) return;
  ctx.written.add(path, text, call.id, call.tool, ctx.uuid);
}

function stripToolUse(block: Json, ctx: StripContext): boolean {
  const changed = stripToolInput(block, ctx);
  // What the call still shows whole once stripped, which its result may repeat: the old_strings
  // of an edit (error-echo.ts).
  const call = typeof block.id === 'string' ? ctx.calls.get(block.id) : undefined;
  const input = block.input as Json | undefined;
  if (call && input && (call.name === 'Edit' || call.name === 'MultiEdit')) {
    const edits = call.name === 'Edit' ? [input] : Array.isArray(input.edits) ? (input.edits as Json[]) : [];
    call.input.oldStrings = edits.flatMap((e) => (e && typeof e.old_string === 'string' && !isStub(e.old_string) ? [digestOf(e.old_string)] : []));
  }
  return changed;
}

function stripToolInput(block: Json, ctx: StripContext): boolean {
  const name = typeof block.name === 'string' ? block.name : 'unknown';
  const input = block.input && typeof block.input === 'object' ? (block.input as Json) : {};
  const id = typeof block.id === 'string' ? block.id : '';
  if (id) {
    const summary = summariseInput(input);
    // A task-list call's input is kept whole (it is small): its confirmation is checked against it.
    ctx.calls.set(id, { name, input: TASK_TOOLS.has(name) ? { ...input, ...summary } : summary });
  }
  const path = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : undefined;
  switch (name) {
    case 'Write': {
      if (stubInputField(input, 'content', path, ctx)) return true;
      if (path) remember(path, input.content, { id, tool: name }, ctx);
      return false;
    }
    case 'Edit':
      return stubOrRemember(input, path, { id, tool: name }, ctx);
    case 'NotebookEdit':
      return stubInputField(input, 'new_source', path, ctx);
    case 'MultiEdit': {
      let changed = false;
      if (Array.isArray(input.edits)) for (const edit of input.edits as Json[]) if (edit && typeof edit === 'object') changed = stubOrRemember(edit, path, { id, tool: name }, ctx) || changed;
      return changed;
    }
    default:
      return false;
  }
}

export interface StripResult {
  changed: boolean;
  /** The record has nothing left to send: drop the line and re-link its children. */
  emptied: boolean;
}

/**
 * The sidecar fields the client reads back on resume: a background task's id (Bash run in the
 * background) or an async agent's launch. 2.1.332 writes a <task-notification> of its own for
 * such a task the log leaves open, and needs these to do so (corpus spotter-tool_heavy-v2.1.38,
 * sessionshare-0ccf1a04-v2.1.15: without them the trimmed log resumed without that text).
 */
const SMALL_SIDECAR_CHARS = 1000;
const BACKGROUND_TASK_FIELDS = ['backgroundTaskId', 'isAsync', 'status', 'agentId', 'description', 'outputFile'] as const;

function backgroundTaskFields(sidecar: unknown): Json | undefined {
  if (!sidecar || typeof sidecar !== 'object' || Array.isArray(sidecar)) return undefined;
  const s = sidecar as Json;
  const isBackground = typeof s.backgroundTaskId === 'string' || (s.isAsync === true && typeof s.agentId === 'string');
  if (!isBackground) return undefined;
  // A launch's whole sidecar when small (2.1.332 reads a Bash launch only with its stdout/stderr/
  // interrupted fields: with backgroundTaskId alone it wrote no notification); else the fields named.
  if (JSON.stringify(s).length <= SMALL_SIDECAR_CHARS) return s;
  const kept: Json = {};
  for (const key of BACKGROUND_TASK_FIELDS) if (s[key] !== undefined && (typeof s[key] !== 'string' || (s[key] as string).length <= 500)) kept[key] = s[key];
  return kept;
}

/** Strips one user or assistant record in place. */
export function stripMessageRecord(record: Json, ctx: StripContext): StripResult {
  let changed = false;
  ctx.cwd = typeof record.cwd === 'string' ? record.cwd : undefined;
  ctx.uuid = typeof record.uuid === 'string' ? record.uuid : undefined;
  if (record.toolUseResult !== undefined) {
    const kept = backgroundTaskFields(record.toolUseResult);
    if (kept === undefined) delete record.toolUseResult;
    if (kept === undefined || Object.keys(kept).length < Object.keys(record.toolUseResult as Json).length) {
      if (kept !== undefined) record.toolUseResult = kept;
      ctx.counts.toolUseResultSidecars++;
      changed = true;
    }
  }
  const message = record.message as Json | undefined;
  if (!message || !Array.isArray(message.content)) return { changed, emptied: false };
  const kept: unknown[] = [];
  for (const item of message.content) {
    const block = item as Json;
    switch (block?.type) {
      case 'thinking':
      case 'redacted_thinking':
        // Signed: a thinking block cannot be shortened, only removed whole.
        ctx.counts.thinkingBlocks++;
        changed = true;
        continue;
      case 'tool_result':
      case 'tool_use': {
        const dropped = dropDefaultValues(block);
        ctx.counts.defaultValuesDropped += dropped;
        changed = (block.type === 'tool_result' ? stripToolResult(block, ctx) : stripToolUse(block, ctx)) || dropped > 0 || changed;
        break;
      }
      case 'image':
      case 'document':
        // Images and PDFs Claude Code attached itself (isMeta lines after a Read) can be read again;
        // those the user pasted are the user's words.
        if (record.type === 'user' && (record.isMeta === true || (ctx.options.stripUserImages && block.type === 'image'))) {
          const source = block.source as Json | undefined;
          const mediaType = typeof source?.media_type === 'string' ? source.media_type : undefined;
          kept.push({ type: 'text', text: stubImage(undefined, mediaType, typeof source?.data === 'string' ? source.data.length : 0) });
          ctx.counts[record.isMeta === true ? 'toolResultImages' : 'userImages']++;
          changed = true;
          continue;
        }
        break;
    }
    kept.push(item);
  }
  message.content = kept;
  return { changed, emptied: kept.length === 0 };
}
