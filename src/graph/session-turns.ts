// The session as the extractors read it: turns that each open with a real user prompt, holding
// the assistant's texts and its tool calls paired with their results, in log order. Every string
// is redacted here, before any extractor sees it.

import type { Session } from '../session/session.js';
import type { SessionEntry } from '../session/entry.js';
import { contentBlocks, contentText, readRecord, type JsonObject } from '../session/payload.js';
import { redactSecrets, redactValue } from './redact.js';

export interface TextStep {
  kind: 'text';
  role: 'user' | 'assistant';
  text: string;
  uuid: string;
}

export interface ToolStep {
  kind: 'tool';
  name: string;
  input: JsonObject;
  /** The result's text ('' for bulky results no extractor reads, such as file contents). */
  result: string;
  isError: boolean;
  /** The result line's `toolUseResult` sidecar, for tools whose facts live there. */
  sidecar?: JsonObject;
  /** False when the call never got a result (interrupted, or the log ends). */
  answered: boolean;
  uuid: string;
  resultUuid?: string;
  cwd?: string;
}

export type Step = TextStep | ToolStep;

export interface Prompt {
  text: string;
  uuid: string;
  /** The slash command the prompt came with, if any. */
  command?: string;
}

export interface Turn {
  /** 0 for whatever precedes the first prompt; then 1, 2, ... */
  index: number;
  prompt?: Prompt;
  steps: Step[];
  /** Claude Code's own compaction summaries met in the turn (its `isCompactSummary` lines). */
  summaries?: { text: string; uuid: string }[];
}

/** Tools whose result text an extractor reads; other results are kept only when they are errors. */
// PowerShell: the shell tool of the Windows client (seen in 2.1.227 logs), read as Bash is.
const RESULT_TEXT_TOOLS = new Set(['Bash', 'PowerShell', 'BashOutput', 'TaskOutput', 'Task', 'Agent', 'TaskCreate', 'KillShell', 'KillBash', 'AskUserQuestion']);
const MAX_RESULT_CHARS = 20_000;
/** Of a subagent's inline work, only the file changes are read: its narration is not the session's. */
const SIDECHAIN_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'Bash']);

export function sessionTurns(session: Session): Turn[] {
  const c = session.conversation;
  const resultOf = new Map<string, SessionEntry>();
  for (const pair of c.toolPairs) resultOf.set(pair.id, pair.result);
  const turns: Turn[] = [{ index: 0, steps: [] }];
  const seen = new Set<string>();
  for (const entry of c.entries) {
    if (entry.type !== 'user' && entry.type !== 'assistant') continue;
    // A subagent's work stored inline (isSidechain lines, 1.0.x clients): its file changes are the session's.
    const sidechain = entry.isSidechain && !c.isSubagentTranscript;
    if (sidechain && entry.type !== 'assistant') continue;
    const uuid = entry.uuid ?? `line-${entry.line + 1}`;
    if (seen.has(uuid)) continue;
    seen.add(uuid);
    if (entry.type === 'user') {
      if (entry.isCompactSummary) {
        const text = redactSecrets(contentText((readRecord(session, entry).message as JsonObject | undefined)?.content));
        const turn = turns[turns.length - 1];
        if (text) (turn.summaries ??= []).push({ text, uuid });
        continue;
      }
      if (entry.isMeta) {
        // A blocking hook's output comes as a meta user line: a fact of the turn, not a prompt.
        const text = contentText((readRecord(session, entry).message as JsonObject | undefined)?.content);
        if (/^\w+ hook feedback:/i.test(text.trim())) turns[turns.length - 1].steps.push({ kind: 'text', role: 'user', text: redactSecrets(text), uuid });
        continue;
      }
      if (!entry.blocks.some((b) => b.type === 'text')) continue;
      const prompt = promptOf(readRecord(session, entry), uuid);
      if (prompt) turns.push({ index: turns.length, prompt, steps: [] });
      continue;
    }
    if (entry.model === '<synthetic>') {
      // Claude Code's own line for a failed API call ("API Error: 529 ..."): a fact of the turn (rule error.api).
      const text = entry.isApiErrorMessage && !sidechain ? contentText((readRecord(session, entry).message as JsonObject | undefined)?.content) : '';
      if (/^API Error\b/.test(text.trim())) turns[turns.length - 1].steps.push({ kind: 'text', role: 'assistant', text: redactSecrets(text), uuid });
      continue;
    }
    const turn = turns[turns.length - 1];
    const record = readRecord(session, entry);
    for (const block of contentBlocks(record)) {
      if (sidechain) {
        if (block.type === 'tool_use' && typeof block.name === 'string' && SIDECHAIN_TOOLS.has(block.name)) turn.steps.push(toolStep(session, block, resultOf, uuid, entry.cwd));
        continue;
      }
      if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') {
        turn.steps.push({ kind: 'text', role: 'assistant', text: redactSecrets(block.text), uuid });
      } else if (block.type === 'tool_use' && typeof block.name === 'string') {
        turn.steps.push(toolStep(session, block, resultOf, uuid, entry.cwd));
      }
    }
  }
  return turns;
}

function toolStep(session: Session, block: JsonObject, resultOf: Map<string, SessionEntry>, uuid: string, cwd: string | undefined): ToolStep {
  const name = block.name as string;
  const input = (block.input && typeof block.input === 'object' ? redactValue(block.input) : {}) as JsonObject;
  const step: ToolStep = { kind: 'tool', name, input, result: '', isError: false, answered: false, uuid, cwd };
  const resultEntry = typeof block.id === 'string' ? resultOf.get(block.id) : undefined;
  if (!resultEntry) return step;
  const record = readRecord(session, resultEntry);
  const result = contentBlocks(record).find((b) => b.type === 'tool_result' && b.tool_use_id === block.id);
  step.answered = true;
  step.resultUuid = resultEntry.uuid;
  step.isError = result?.is_error === true;
  if (step.isError || RESULT_TEXT_TOOLS.has(name) || name.startsWith('mcp__')) {
    const text = contentText(result?.content);
    step.result = redactSecrets(text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS / 2)}\n…\n${text.slice(-MAX_RESULT_CHARS / 2)}` : text);
  }
  if (record.toolUseResult && typeof record.toolUseResult === 'object' && !Array.isArray(record.toolUseResult)) {
    step.sidecar = redactValue(
      pick(record.toolUseResult as JsonObject, [
        'type',
        'filePath',
        'task',
        'statusChange',
        'taskId',
        'status',
        'agentId',
        'agentType',
        'totalToolUseCount',
        'interrupted',
        'returnCodeInterpretation',
      ]),
    ) as JsonObject;
  }
  return step;
}

function pick(object: JsonObject, keys: string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) {
    const value = object[key];
    if (value !== undefined && (typeof value !== 'string' || value.length < 500)) out[key] = value;
  }
  return out;
}

/** Markup Claude Code wraps around what the user typed: its content is not the user's words. */
const WRAPPERS = /<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics|local-command-caveat|user-memory-input)>[\s\S]*?<\/\1>/g;

/** The real prompt in a user line, or undefined for command output, interruptions and notices. */
export function promptOf(record: JsonObject, uuid: string): Prompt | undefined {
  const texts = contentBlocks(record)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string);
  let text = texts.join('\n').replace(WRAPPERS, '').trim();
  if (text === '') return undefined;
  if (/^(?:\[Request interrupted|<local-command-std(?:out|err)>|<bash-(?:input|stdout|stderr)>|<task-notification>|Caveat: The messages below)/.test(text)) return undefined;
  if (/^This session is being continued from a previous conversation/.test(text)) return undefined;
  const command = /<command-name>\s*([^<]*?)\s*<\/command-name>/.exec(text)?.[1];
  if (command !== undefined) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
    if (args === '' || command === '/compact') return undefined;
    text = args;
  }
  return { text: redactSecrets(text), uuid, command };
}
