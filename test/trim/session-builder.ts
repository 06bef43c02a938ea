// Small Claude Code 2.1.x session logs built in code, with the field shapes the real CLI writes
// (see sample-sessions/*.jsonl): one response per line, tool results as user lines carrying a
// `toolUseResult` sidecar, bookkeeping lines between them. Each method appends one line.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Json = Record<string, any>;

export const CWD = '/tmp/cmv-rules/app';

const writtenDirs: string[] = [];

/** Removes the temp dirs of every log written so far (call it in afterAll). */
export function removeWrittenSessions(): void {
  for (const dir of writtenDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
const BASE_MS = Date.parse('2026-03-01T10:00:00.000Z');

export interface ToolCallLines {
  id: string;
  use: Json;
  result: Json;
}

export class SessionBuilder {
  readonly sessionId = randomUUID();
  readonly lines: Json[] = [];
  /** The uuid the next line hangs from (the chain's current tip). */
  tip: string | null = null;
  private clock = 0;
  private toolSeq = 0;

  private common(): Json {
    return {
      isSidechain: false,
      userType: 'external',
      entrypoint: 'cli',
      cwd: CWD,
      sessionId: this.sessionId,
      version: '2.1.100',
      gitBranch: 'main',
    };
  }

  private timestamp(): string {
    return new Date(BASE_MS + 1000 * this.clock++).toISOString();
  }

  /** Appends a line as it is (summary lines, hand-made oddities). */
  raw(line: Json): Json {
    this.lines.push(line);
    return line;
  }

  /** Appends a chained line: parentUuid is the tip unless given, and the line becomes the tip. */
  private chained(line: Json, parent: string | null | undefined): Json {
    const uuid = randomUUID();
    const full = { parentUuid: parent === undefined ? this.tip : parent, ...this.common(), ...line, uuid, timestamp: this.timestamp() };
    this.lines.push(full);
    this.tip = uuid;
    return full;
  }

  user(content: string | Json[], extra: Json = {}, parent?: string | null): Json {
    return this.chained({ type: 'user', message: { role: 'user', content }, promptId: randomUUID(), permissionMode: 'default', ...extra }, parent);
  }

  /** One assistant line; pass the same `messageId` to split one response over several lines, as 2.1.x does. */
  assistant(content: Json[], options: { messageId?: string; usage?: Json; parent?: string | null } = {}): Json {
    const hasToolUse = content.some((b) => b.type === 'tool_use');
    return this.chained(
      {
        type: 'assistant',
        requestId: `req_${options.messageId ?? randomUUID().replace(/-/g, '')}`,
        message: {
          id: options.messageId ?? `msg_${randomUUID().replace(/-/g, '')}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-6',
          content,
          stop_reason: hasToolUse ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: options.usage ?? usage(),
        },
      },
      options.parent,
    );
  }

  /** An assistant tool_use line (after a text, with `say`) followed by its tool_result user line (with the toolUseResult sidecar). */
  toolCall(name: string, input: Json, content: string | Json[], options: { isError?: boolean; toolUseResult?: unknown; say?: string } = {}): ToolCallLines {
    const id = `toolu_${String(++this.toolSeq).padStart(4, '0')}${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const said = options.say === undefined ? [] : [{ type: 'text', text: options.say }];
    const use = this.assistant([...said, { type: 'tool_use', id, name, input }]);
    const block: Json = { tool_use_id: id, type: 'tool_result', content };
    if (options.isError) block.is_error = true;
    const sidecar = options.toolUseResult ?? (typeof content === 'string' ? (options.isError ? `Error: ${content}` : { stdout: content, stderr: '', interrupted: false }) : { content });
    const result = this.user([block], { toolUseResult: sidecar, sourceToolAssistantUUID: use.uuid });
    return { id, use, result };
  }

  /** Bookkeeping lines Claude Code writes around a prompt: none of them reach the API. */
  bookkeeping(prompt: string): void {
    this.raw({ type: 'queue-operation', operation: 'enqueue', timestamp: this.timestamp(), sessionId: this.sessionId, content: prompt });
    this.raw({ type: 'queue-operation', operation: 'dequeue', timestamp: this.timestamp(), sessionId: this.sessionId });
    const messageId = randomUUID();
    this.raw({ type: 'file-history-snapshot', messageId, snapshot: { messageId, trackedFileBackups: {}, timestamp: this.timestamp() }, isSnapshotUpdate: false });
  }

  /** A hook progress line, chained like 2.1.x writes it. */
  progress(): Json {
    return this.chained(
      { type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse', hookName: 'PostToolUse:Read', command: 'true' }, toolUseID: randomUUID(), parentToolUseID: randomUUID() },
      undefined,
    );
  }

  /** A manual /compact: the boundary (a new chain root) and the summary user line after it. */
  compact(summary: string): { boundary: Json; summary: Json } {
    const logicalParent = this.tip;
    const boundary = this.chained(
      {
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        level: 'info',
        logicalParentUuid: logicalParent,
        compactMetadata: { trigger: 'manual', preTokens: 27187 },
      },
      null,
    );
    const line = this.user(
      `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n${summary}`,
      { isCompactSummary: true, isVisibleInTranscriptOnly: true },
    );
    return { boundary, summary: line };
  }

  text(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  }

  /** Writes the log into a fresh temp dir and returns its path. */
  write(name = `${this.sessionId}.jsonl`): string {
    const dir = mkdtempSync(join(tmpdir(), 'cmv-rules-'));
    writtenDirs.push(dir);
    const path = join(dir, name);
    writeFileSync(path, this.text());
    return path;
  }
}

export function usage(prompt = { input: 3, cacheWrite: 2_000, cacheRead: 20_000 }, output = 120): Json {
  return {
    input_tokens: prompt.input,
    cache_creation_input_tokens: prompt.cacheWrite,
    cache_read_input_tokens: prompt.cacheRead,
    output_tokens: output,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard',
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: prompt.cacheWrite },
  };
}

/** `n` numbered lines of source, as the Read tool returns them ("<n>\t<line>"). */
export function readOutput(n: number, line = (i: number) => `export const value${i} = computeSomethingUseful(${i}, 'argument number ${i}');`): string {
  return Array.from({ length: n }, (_, i) => `${i + 1}\t${line(i + 1)}`).join('\n');
}

/** Output lines of a command, numbered so the head and tail can be told apart. */
export function commandOutput(n: number): string {
  return Array.from({ length: n }, (_, i) => `output line ${i + 1}: building module ${i + 1} of ${n} ... done`).join('\n');
}

/** A base64 payload of about `chars` characters (the content does not matter to the trim). */
export function base64Data(chars: number): string {
  return Buffer.alloc(Math.ceil((chars * 3) / 4), 7)
    .toString('base64')
    .slice(0, chars);
}

/** Parses a trimmed log's lines. */
export function recordsOf(lines: Buffer[]): Json[] {
  return lines.map((l) => JSON.parse(l.toString('utf8')) as Json);
}

export function byUuid(records: Json[], uuid: string): Json | undefined {
  return records.find((r) => r.uuid === uuid);
}

/** The content of the tool_result block answering `id` in the records. */
export function resultContent(records: Json[], id: string): unknown {
  for (const r of records) {
    const content = r.message?.content;
    if (!Array.isArray(content)) continue;
    const block = content.find((b: Json) => b?.type === 'tool_result' && b.tool_use_id === id);
    if (block) return block.content;
  }
  return undefined;
}
