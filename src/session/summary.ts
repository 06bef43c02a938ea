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

function promptText(record: Record<string, unknown>): string | undefined {
  if (record.type !== 'user' || record.isMeta === true || record.isSidechain === true || record.isCompactSummary === true) return undefined;
  const content = (record.message as Record<string, unknown> | undefined)?.content;
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const block = content.find((b) => b && typeof b === 'object' && (b as Record<string, unknown>).type === 'text') as Record<string, unknown> | undefined;
    text = typeof block?.text === 'string' ? block.text : undefined;
  }
  if (!text) return undefined;
  const command = /<command-name>([^<]*)<\/command-name>/.exec(text);
  if (command) {
    const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1]?.trim();
    return args ? `${command[1]} ${args}` : command[1];
  }
  if (text.startsWith('<local-command') || text.startsWith('Caveat:') || text.startsWith('<system-reminder>')) return undefined;
  return text;
}

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export async function peekSession(path: string): Promise<SessionPeek> {
  const peek: SessionPeek = { lines: 0 };
  const tail: Buffer[] = [];
  for await (const raw of readRawLines(path)) {
    peek.lines++;
    if (!peek.firstPrompt || !peek.cwd || !peek.version) {
      for (const record of parseRecords(raw.bytes) as Record<string, unknown>[]) {
        if (!record || typeof record !== 'object') continue;
        if (!peek.cwd && typeof record.cwd === 'string') peek.cwd = record.cwd;
        if (!peek.version && typeof record.version === 'string') peek.version = record.version;
        if (!peek.sessionId && typeof record.sessionId === 'string') peek.sessionId = record.sessionId;
        if (!peek.firstPrompt) peek.firstPrompt = promptText(record);
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
  return peek;
}
