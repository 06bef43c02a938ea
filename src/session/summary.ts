// A quick look at a session for listings: the facts at its head (cwd, first prompt, version)
// and its tail (model, last version), with the lines in between only counted, not parsed.

import { readRawLines } from './line-reader.js';
import { parseRecords, parseLine } from './entry.js';

export interface SessionPeek {
  sessionId?: string;
  cwd?: string;
  firstPrompt?: string;
  version?: string;
  model?: string;
  lines: number;
  lastTimestamp?: string;
  /** A session cmv made from another (session/derived.ts): which, and how. */
  derivedFrom?: { sessionId?: string; by?: string };
}

const TAIL_LINES = 40;

/** Markup Claude Code wraps around what the user typed (the file open in the IDE, reminders): not the user's words. */
const WRAPPERS = /<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics|local-command-caveat|user-memory-input)>[\s\S]*?<\/\1>/g;

/** User lines that are no prompt: command output, interruptions, notices, a continued session's summary. */
const NOT_A_PROMPT =
  /^(?:\[Request interrupted|<local-command-std(?:out|err)>|<bash-(?:input|stdout|stderr)>|<task-notification>|Caveat: The messages below|This session is being continued from a previous conversation)/;

/**
 * Claude Code's own slash commands that run the client, not the work (leaving, switching model,
 * settings): a listing names the session by a prompt after them. A command that does work
 * (`/init`, `/review`, a project's own) names the session as a prompt does.
 */
const HOUSEKEEPING_COMMANDS = new Set([
  '/exit',
  '/quit',
  '/clear',
  '/resume',
  '/continue',
  '/model',
  '/help',
  '/config',
  '/settings',
  '/cost',
  '/usage',
  '/status',
  '/login',
  '/logout',
  '/doctor',
  '/ide',
  '/permissions',
  '/memory',
  '/hooks',
  '/mcp',
  '/agents',
  '/context',
  '/release-notes',
  '/terminal-setup',
  '/vim',
  '/theme',
  '/statusline',
  '/add-dir',
  '/bashes',
  '/export',
  '/rewind',
  '/todos',
  '/upgrade',
  '/privacy-settings',
  '/output-style',
]);

/** What the user typed in a line: a prompt, or a housekeeping slash command (`/exit`, `/model opus`). */
function promptText(record: Record<string, unknown>): { text: string; command: boolean } | undefined {
  if (record.type !== 'user' || record.isMeta === true || record.isSidechain === true || record.isCompactSummary === true) return undefined;
  const content = (record.message as Record<string, unknown> | undefined)?.content;
  const texts: string[] = [];
  if (typeof content === 'string') texts.push(content);
  else if (Array.isArray(content)) {
    for (const b of content)
      if (b && typeof b === 'object' && (b as Record<string, unknown>).type === 'text' && typeof (b as Record<string, unknown>).text === 'string') texts.push((b as Record<string, string>).text);
  }
  const text = texts.join('\n').replace(WRAPPERS, '').trim();
  if (!text || NOT_A_PROMPT.test(text)) return undefined;
  const command = /<command-name>\s*([^<]*?)\s*<\/command-name>/.exec(text);
  if (command) {
    const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1]?.trim();
    return { text: args ? `${command[1]} ${args}` : command[1], command: HOUSEKEEPING_COMMANDS.has(command[1]) };
  }
  return { text, command: false };
}

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export async function peekSession(path: string): Promise<SessionPeek> {
  const peek: SessionPeek = { lines: 0 };
  const tail: Buffer[] = [];
  // A slash command stands for the session only when no prompt follows it (`/exit` alone).
  let firstCommand: string | undefined;
  for await (const raw of readRawLines(path)) {
    peek.lines++;
    if (!peek.firstPrompt || !peek.cwd || !peek.version) {
      for (const record of parseRecords(raw.bytes) as Record<string, unknown>[]) {
        if (!record || typeof record !== 'object') continue;
        if (!peek.cwd && typeof record.cwd === 'string') peek.cwd = record.cwd;
        if (!peek.version && typeof record.version === 'string') peek.version = record.version;
        if (!peek.sessionId && typeof record.sessionId === 'string') peek.sessionId = record.sessionId;
        if (!peek.firstPrompt) {
          const prompt = promptText(record);
          if (prompt?.command) firstCommand ??= prompt.text;
          else if (prompt) peek.firstPrompt = prompt.text;
        }
      }
    }
    tail.push(raw.bytes);
    if (tail.length > TAIL_LINES) tail.shift();
  }
  let tailVersion: string | undefined;
  for (let i = tail.length - 1; i >= 0 && (!peek.model || !peek.lastTimestamp || !tailVersion || !peek.derivedFrom); i--) {
    for (const entry of parseLine(tail[i], 0).entries) {
      if (!peek.model && entry.model && entry.model !== '<synthetic>') peek.model = entry.model;
      if (!peek.lastTimestamp && entry.timestamp) peek.lastTimestamp = entry.timestamp;
      if (!peek.derivedFrom && entry.derived) peek.derivedFrom = { sessionId: entry.derived.from, by: entry.derived.by };
      tailVersion ??= entry.version;
    }
  }
  peek.version = tailVersion ?? peek.version;
  peek.firstPrompt ??= firstCommand;
  return peek;
}
