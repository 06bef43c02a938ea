// Results a later identical call superseded: the same file read again with the same range, a
// listing or search repeated with the same input, a git state query repeated, in the same working
// directory. The later result, kept whole, shows what the earlier one showed or what it became;
// the earlier one points to it by the call's id. Decided in pass 2 (the later call comes after),
// for results Claude Code sends, like todo-lists.ts. Only results the trim keeps whole (under the
// threshold, not errors) are concerned: a larger one is a stub already. Pure.

import type { SessionEntry } from '../session/entry.js';
import { contentBlocks, contentText, type JsonObject } from '../session/payload.js';
import { formatSize, isStub } from './stubs.js';

/** A kind of call whose later twin supersedes it: rules as data, each with its examples. */
export interface SupersedeRule {
  id: string;
  tools: readonly string[];
  /** The identity of a call's input: calls with the same key (and cwd) answer the same question; undefined: never superseded. */
  key: (input: JsonObject) => string | undefined;
  /** The result shows the content itself (not a note pointing back to an earlier result). */
  shows: (text: string) => boolean;
  why: string;
  examples: { same: [JsonObject, JsonObject][]; other: [JsonObject, JsonObject][] };
}

/** Read-only git queries, whole commands: a chained or piped command may do more. */
const GIT_STATE = /^git (?:status|diff|log|branch|show|stash list)(?: [^;&|><`$]*)?$/;
/** A directory listing, whole command. */
const LISTING = /^(?:ls|tree)(?: [^;&|><`$]*)?$/;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const SUPERSEDE_RULES: readonly SupersedeRule[] = [
  {
    id: 'superseded.read',
    tools: ['Read'],
    key: (input) => (str(input.file_path) ? JSON.stringify([input.file_path, input.offset ?? null, input.limit ?? null, input.pages ?? null]) : undefined),
    // Numbered lines (1.0.x "  1→", 2.1.x "1\t"): 2.1.x answers a re-read of an unchanged file with a note instead.
    shows: (text) => /^ *\d+(?:→|\t)/m.test(text),
    why: 'the same range of the same file read again later: the later result shows the file as the session last saw it',
    examples: {
      same: [[{ file_path: '/p/a.ts' }, { file_path: '/p/a.ts' }]],
      other: [
        [{ file_path: '/p/a.ts' }, { file_path: '/p/a.ts', offset: 200 }],
        [{ file_path: '/p/a.ts' }, { file_path: '/p/b.ts' }],
      ],
    },
  },
  {
    id: 'superseded.search',
    tools: ['Grep', 'Glob', 'LS'],
    key: (input) =>
      JSON.stringify(
        Object.keys(input)
          .sort()
          .map((k) => [k, input[k]]),
      ),
    shows: () => true,
    why: 'the same search or listing run again later: the later result lists what is there now',
    examples: {
      same: [
        [
          { pattern: 'month_bounds', path: '/p' },
          { path: '/p', pattern: 'month_bounds' },
        ],
      ],
      other: [[{ pattern: 'month_bounds' }, { pattern: 'month_bounds', output_mode: 'content' }]],
    },
  },
  {
    id: 'superseded.state-query',
    tools: ['Bash'],
    key: (input) => {
      const command = str(input.command)?.trim();
      return command && (GIT_STATE.test(command) || LISTING.test(command)) && input.run_in_background !== true ? command : undefined;
    },
    shows: () => true,
    why: 'a read-only query of the working tree (git status, git diff, ls) run again later: the later output is the state the session went on from',
    examples: {
      same: [
        [{ command: 'git status' }, { command: 'git status', description: 'Check again' }],
        [{ command: 'git diff --stat' }, { command: 'git diff --stat' }],
      ],
      other: [
        [{ command: 'git status' }, { command: 'git status --short' }],
        [{ command: 'git status && git add .' }, { command: 'git status && git add .' }],
        [{ command: 'npm test' }, { command: 'npm test' }],
      ],
    },
  },
];

/** A result is pointed to its twin only when that saves this many chars at least (the pointer's id costs ~20 tokens). */
const MIN_SAVED_CHARS = 100;

const RULE_OF_TOOL = new Map(SUPERSEDE_RULES.flatMap((rule) => rule.tools.map((tool) => [tool, rule] as const)));

/** The key under which `tool` called with `input` in `cwd` is superseded, or undefined. */
export function supersedeKey(tool: string, input: JsonObject, cwd: string | undefined): string | undefined {
  const rule = RULE_OF_TOOL.get(tool);
  const key = rule?.key(input);
  return key === undefined ? undefined : `${rule!.id}\u0000${cwd ?? ''}\u0000${key}`;
}

export interface SupersedableCall {
  toolId: string;
  tool: string;
  key: string;
  use: SessionEntry;
  result?: SessionEntry;
  /** The result as read: kept whole by the trim (not an error, not over the threshold) and showing content. */
  keptWhole: boolean;
  shows: boolean;
  chars: number;
  lines: number;
}

/** Notes the calls of a record that a later twin may supersede, and their results (pass 1, before stripping). */
export function noteSupersedableCalls(record: JsonObject, entry: SessionEntry, seen: Map<string, SupersedableCall>, order: SupersedableCall[], threshold: number): void {
  for (const block of contentBlocks(record)) {
    if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string' && block.input && typeof block.input === 'object') {
      const key = supersedeKey(block.name, block.input as JsonObject, str(record.cwd));
      if (key === undefined) continue;
      const call: SupersedableCall = { toolId: block.id, tool: block.name, key, use: entry, keptWhole: false, shows: false, chars: 0, lines: 0 };
      seen.set(block.id, call);
      order.push(call);
    } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      const call = seen.get(block.tool_use_id);
      if (!call) continue;
      const text = contentText(block.content);
      const onlyText = typeof block.content === 'string' || (Array.isArray(block.content) && block.content.every((p) => (p as JsonObject)?.type === 'text'));
      call.result = entry;
      call.chars = text.length;
      call.lines = text === '' ? 0 : text.split('\n').length;
      call.keptWhole = block.is_error !== true && onlyText && text.length <= threshold && !isStub(text);
      call.shows = call.keptWhole && RULE_OF_TOOL.get(call.tool)!.shows(text);
    }
  }
}

/** What the earlier result says instead: where its answer is now. */
export function stubSuperseded(call: Pick<SupersedableCall, 'tool' | 'chars' | 'lines'>, laterId: string): string {
  return `[cmv: ${call.lines} lines / ${formatSize(call.chars)} elided; the same ${call.tool} ran again later (${laterId}), its result is kept]`;
}

/**
 * The earlier results to point to a later twin, by the entry of their line: for each key, in file
 * order among the sent calls, every result kept whole before the last one that shows content
 * points to it. A twin whose result shows no content (2.1.x's note that a file is unchanged since
 * an earlier read) ends the run: what comes before it may be the result that note points back to.
 */
export function supersededRewrites(calls: readonly SupersedableCall[], sent: Set<SessionEntry>): { rewrites: Map<SessionEntry, (record: JsonObject) => number>; planned: number } {
  const byKey = new Map<string, SupersedableCall[]>();
  for (const call of calls) {
    // One record per line (a glued line is copied as it is, never rewritten).
    if (!call.result || !sent.has(call.use) || !sent.has(call.result) || call.result.record !== 0) continue;
    const group = byKey.get(call.key);
    if (group) group.push(call);
    else byKey.set(call.key, [call]);
  }
  const laterOf = new Map<SessionEntry, Map<string, [SupersedableCall, SupersedableCall]>>();
  let planned = 0;
  for (const group of byKey.values()) {
    if (group.length < 2) continue;
    let later: SupersedableCall | undefined;
    for (let i = group.length - 1; i >= 0; i--) {
      const call = group[i];
      if (!call.shows) {
        later = undefined;
        continue;
      }
      if (!later) {
        later = call;
        continue;
      }
      if (stubSuperseded(call, later.toolId).length + MIN_SAVED_CHARS > call.chars) continue;
      const at = laterOf.get(call.result!) ?? new Map<string, [SupersedableCall, SupersedableCall]>();
      laterOf.set(call.result!, at.set(call.toolId, [call, later]));
      planned++;
    }
  }
  const rewrites = new Map<SessionEntry, (record: JsonObject) => number>();
  for (const [entry, byId] of laterOf) {
    rewrites.set(entry, (record) => {
      let stubbed = 0;
      for (const block of contentBlocks(record)) {
        const pair = block.type === 'tool_result' ? byId.get(String(block.tool_use_id)) : undefined;
        if (!pair) continue;
        block.content = stubSuperseded(pair[0], pair[1].toolId);
        stubbed++;
      }
      return stubbed;
    });
  }
  return { rewrites, planned };
}
