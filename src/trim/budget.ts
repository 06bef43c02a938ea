// Budget eviction, after the lossless passes: the Context Window Lifecycle order, inferred from
// the log alone. Episodes are the tool calls between two user turns; exploration episodes only
// look (Read, Grep, Glob, LS, web, read-only Bash), action episodes change things. Oldest actions
// go first, then explorations no remaining action depends on (same paths), in graduated levels.
// User turns and the model's own texts are never evicted; tool calls stay paired.

import type { Session } from '../session/session.js';
import type { SessionEntry } from '../session/entry.js';
import { readRecord, type JsonObject } from '../session/payload.js';
import { tokenBreakdown, addRecordTokens, newBreakdown, toolNamesOf, toolResultTokens } from '../tokens/breakdown.js';
import { countTokens } from '../tokens/counter.js';
import { KEEP_RESULTS, summariseInput } from './strip.js';
import { jsonText } from '../tokens/json-text.js';

export type EpisodeKind = 'exploration' | 'action';

export interface EpisodeCall {
  id: string;
  name: string;
  use: SessionEntry;
  result: SessionEntry;
  paths: string[];
  readOnly: boolean;
}

export interface Episode {
  index: number;
  kind: EpisodeKind;
  calls: EpisodeCall[];
  paths: Set<string>;
  /** Index of the user turn that started it. */
  turn: number;
}

export interface Eviction {
  episode: number;
  kind: EpisodeKind;
  level: 1 | 2 | 3;
  calls: number;
  tools: string[];
  tokensFreed: number;
}

export interface BudgetReport {
  budget: number;
  tokensBefore: number;
  tokensAfter: number;
  met: boolean;
  evicted: Eviction[];
}

const EXPLORATION_TOOLS = new Set(['Read', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch', 'NotebookRead', 'BashOutput', 'TaskOutput']);
const ACTION_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const LISTING_TOOLS = new Set(['Grep', 'Glob', 'LS', 'WebSearch']);
const READ_ONLY_COMMAND =
  /^\s*(?:cd\s+\S+\s*&&\s*)?(?:ls|cat|head|tail|less|grep|rg|ag|find|fd|tree|pwd|echo|wc|which|type|file|stat|du|df|env|printenv|date|whoami|uname|git\s+(?:status|log|diff|show|branch|remote|blame|rev-parse|ls-files))\b/;

export function isReadOnlyCommand(command: string): boolean {
  return READ_ONLY_COMMAND.test(command) && !/[>]|\brm\b|\bmv\b|\bcp\b|\btee\b|\bsed\s+-i/.test(command);
}

function isUserTurn(entry: SessionEntry): boolean {
  return entry.type === 'user' && !entry.isMeta && !entry.isCompactSummary && entry.blocks.some((b) => b.type === 'text' || b.type === 'image') && !entry.blocks.some((b) => b.type === 'tool_result');
}

/** Splits the sent conversation into episodes. */
export function findEpisodes(session: Session): Episode[] {
  const c = session.conversation;
  const pairs = new Map(c.toolPairs.map((p) => [p.id, p]));
  const episodes: Episode[] = [];
  let turn = 0;
  let current: Episode | undefined;
  for (const entry of c.sentMessages) {
    if (isUserTurn(entry)) {
      turn++;
      current = undefined;
      continue;
    }
    if (entry.type !== 'assistant') continue;
    const toolBlocks = entry.blocks.filter((b) => b.type === 'tool_use' && b.toolId && pairs.has(b.toolId));
    if (toolBlocks.length === 0) continue;
    const record = readRecord(session, entry);
    const content = ((record.message as JsonObject | undefined)?.content ?? []) as JsonObject[];
    for (const block of toolBlocks) {
      const pair = pairs.get(block.toolId!)!;
      const use = content.find((b) => b?.type === 'tool_use' && b.id === block.toolId);
      const input = (use?.input ?? {}) as JsonObject;
      const name = block.name ?? 'unknown';
      const paths = ['file_path', 'notebook_path', 'path'].map((k) => input[k]).filter((v): v is string => typeof v === 'string');
      const readOnly = EXPLORATION_TOOLS.has(name) || (name === 'Bash' && typeof input.command === 'string' && isReadOnlyCommand(input.command));
      if (!current) {
        current = { index: episodes.length, kind: 'exploration', calls: [], paths: new Set(), turn };
        episodes.push(current);
      }
      current.calls.push({ id: pair.id, name, use: pair.use, result: pair.result, paths, readOnly });
      for (const p of paths) current.paths.add(p);
      if (!readOnly || ACTION_TOOLS.has(name)) current.kind = 'action';
    }
  }
  return episodes;
}

/** Eviction order: oldest actions first, then explorations with no remaining dependent action. */
export function evictionOrder(episodes: Episode[]): Episode[] {
  const actions = episodes.filter((e) => e.kind === 'action');
  const explorations = episodes.filter((e) => e.kind === 'exploration');
  const dependents = (exploration: Episode) => actions.filter((a) => a.index > exploration.index && [...a.paths].some((p) => exploration.paths.has(p)));
  const order: Episode[] = [...actions];
  const free = explorations.filter((x) => dependents(x).length === 0);
  const bound = explorations.filter((x) => dependents(x).length > 0);
  // Bound explorations become free once their actions are gone, which happens before them in the order.
  order.push(...free, ...bound);
  return order;
}

function marker(call: EpisodeCall): string {
  return `[cmv: ${call.name}${call.paths[0] ? ` ${call.paths[0]}` : ''} evicted; redo if needed]`;
}

/** Task-list tools: each call restates the whole list, so all but the last are superseded. */
const TASK_LIST_TOOLS = new Set(['TodoWrite', 'TaskCreate', 'TaskUpdate']);

function callEvictableAt(call: EpisodeCall, level: number, lastTaskList: string | undefined): boolean {
  if (TASK_LIST_TOOLS.has(call.name)) return level === 3 && call.id !== lastTaskList;
  // Subagent reports and plans are the model's own understanding: never evicted.
  if (KEEP_RESULTS.has(call.name)) return false;
  if (level === 1) return LISTING_TOOLS.has(call.name);
  return true;
}

function tokensOf(content: unknown): number {
  const { text, image } = toolResultTokens(content);
  return text + image;
}

/** The input that identifies a call (path, command, pattern), clipped, and nothing else. */
function identifyingInput(input: JsonObject): JsonObject {
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(summariseInput(input))) kept[key] = typeof value === 'string' && value.length > 120 ? `${value.slice(0, 119)}…` : value;
  return kept;
}

/**
 * Evicts tool payloads, in order and by level, until the sent messages fit `budget` tokens.
 * Works on records of the in-memory trimmed session and returns the changed lines.
 */
export function evictToBudget(session: Session, budget: number): { report: BudgetReport; changed: Map<number, JsonObject> } {
  const names = toolNamesOf(session);
  const perEntry = new Map<SessionEntry, number>();
  const first = tokenBreakdown(session);
  for (const { entry, tokens } of first.perEntry) perEntry.set(entry, tokens);
  let total = first.total;
  const report: BudgetReport = { budget, tokensBefore: total, tokensAfter: total, met: total <= budget, evicted: [] };
  const changed = new Map<number, JsonObject>();
  if (report.met) return { report, changed };

  const recordFor = (entry: SessionEntry): JsonObject => {
    let record = changed.get(entry.line);
    if (!record) {
      record = readRecord(session, entry);
      changed.set(entry.line, record);
    }
    return record;
  };
  const recount = (entry: SessionEntry) => {
    const b = newBreakdown();
    const n = addRecordTokens(b, entry, recordFor(entry), names);
    total += n - (perEntry.get(entry) ?? 0);
    perEntry.set(entry, n);
  };

  const episodes = findEpisodes(session);
  const order = evictionOrder(episodes);
  const lastTaskList = episodes
    .flatMap((e) => e.calls)
    .filter((call) => TASK_LIST_TOOLS.has(call.name))
    .pop()?.id;
  for (const level of [1, 2, 3] as const) {
    for (const episode of order) {
      if (total <= budget) break;
      const before = total;
      const tools: string[] = [];
      for (const call of episode.calls) {
        if (!callEvictableAt(call, level, lastTaskList)) continue;
        const result = recordFor(call.result);
        const content = ((result.message as JsonObject).content ?? []) as JsonObject[];
        for (const block of content) {
          if (block?.type === 'tool_result' && block.tool_use_id === call.id && block.is_error !== true) {
            const text = marker(call);
            // A marker must free tokens, never add them (short results stay as they are).
            if (block.content !== text && countTokens(text) < tokensOf(block.content)) block.content = text;
          }
        }
        recount(call.result);
        if (level === 3) {
          // The whole episode: large inputs go too, the call itself (name, path) stays paired.
          const use = recordFor(call.use);
          for (const block of ((use.message as JsonObject).content ?? []) as JsonObject[]) {
            if (block?.type !== 'tool_use' || block.id !== call.id || !block.input || typeof block.input !== 'object') continue;
            const input = block.input as JsonObject;
            const identity = identifyingInput(input);
            if (countTokens(jsonText(identity)) < countTokens(jsonText(input))) block.input = identity;
          }
          recount(call.use);
        }
        tools.push(call.name);
      }
      if (tools.length > 0 && total < before) {
        report.evicted.push({ episode: episode.index, kind: episode.kind, level, calls: tools.length, tools: [...new Set(tools)], tokensFreed: before - total });
      }
    }
  }
  report.tokensAfter = total;
  report.met = total <= budget;
  return { report, changed };
}
