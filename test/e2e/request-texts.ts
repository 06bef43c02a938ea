// Reading a captured Messages API request body: the conversation texts it carries (without the
// text Claude Code adds on its own), its size, and a one-line-per-message summary for diagnosis.

export interface RequestText {
  role: 'user' | 'assistant';
  text: string;
}

export interface Block {
  type?: string;
  text?: unknown;
  id?: string;
  tool_use_id?: string;
  [key: string]: unknown;
}

export interface Message {
  role: string;
  content: string | Block[];
}

export function messagesOf(body: any): Message[] {
  return Array.isArray(body?.messages) ? (body.messages as Message[]) : [];
}

/** A message's content blocks; a string content is one text block. */
export function blocksOf(message: Message | undefined): Block[] {
  if (!message) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? message.content : [];
}

/** Tool pairing as the API demands it: each tool_use answered in the next message, each tool_result answering the previous one. */
export function toolPairFaults(body: any): string[] {
  const messages = messagesOf(body);
  const faults: string[] = [];
  messages.forEach((message, i) => {
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      const answered = new Set(
        blocksOf(messages[i + 1])
          .filter((b) => b.type === 'tool_result')
          .map((b) => b.tool_use_id),
      );
      for (const use of blocks.filter((b) => b.type === 'tool_use')) if (!answered.has(use.id)) faults.push(`message ${i}: tool_use ${use.id} has no tool_result in message ${i + 1}`);
    } else {
      const asked = new Set(
        blocksOf(messages[i - 1])
          .filter((b) => b.type === 'tool_use')
          .map((b) => b.id),
      );
      for (const result of blocks.filter((b) => b.type === 'tool_result'))
        if (!asked.has(result.tool_use_id)) faults.push(`message ${i}: tool_result ${result.tool_use_id} answers no tool_use of message ${i - 1}`);
    }
  });
  return faults;
}

/** Text Claude Code inserts at request time or from attachment lines, not conversation. */
export function isClientAddedText(text: string): boolean {
  return text.trimStart().startsWith('<system-reminder>');
}

/**
 * 2.1.332 sends a task-notification user line inside a system-reminder frame; the logged text is
 * intact inside it. Returns that text, or undefined for any other text.
 */
export function unwrappedNotification(text: string): string | undefined {
  if (!text.startsWith('<system-reminder>\n[SYSTEM NOTIFICATION - NOT USER INPUT]')) return undefined;
  const start = text.indexOf('<task-notification>');
  const end = text.lastIndexOf('</task-notification>');
  return start >= 0 && end > start ? text.slice(start, end + '</task-notification>'.length) : undefined;
}

/** Texts the client writes itself in place of a missing turn (both clients, anywhere in the request). */
const CLIENT_FILLERS = new Set(['assistant\u0000No response requested.', 'user\u0000Continue from where you left off.']);

/**
 * Every text block of the request's messages, in order, except the ones Claude Code adds itself:
 * `<system-reminder>` blocks, and the resume prompt (the last text block of the last user message).
 */
export function conversationTexts(body: any): RequestText[] {
  const messages = messagesOf(body);
  let promptAt: { message: number; block: number } | undefined;
  // 2.1.332 sends client context as role:"system" messages, one of them after the prompt: the
  // prompt is the last text of the last USER message, and system-role messages are no conversation.
  let last = messages.length - 1;
  while (last >= 0 && messages[last].role === 'system') last--;
  if (last >= 0 && messages[last].role === 'user') {
    const blocks = blocksOf(messages[last]);
    for (let b = blocks.length - 1; b >= 0; b--) {
      if (blocks[b].type === 'text') {
        promptAt = { message: last, block: b };
        break;
      }
    }
  }
  const texts: RequestText[] = [];
  messages.forEach((message, m) => {
    if (message.role === 'system') return;
    blocksOf(message).forEach((block, b) => {
      if (block.type !== 'text' || typeof block.text !== 'string') return;
      if (promptAt && promptAt.message === m && promptAt.block === b) return;
      const notification = unwrappedNotification(block.text);
      if (notification !== undefined) {
        texts.push({ role: 'user', text: notification });
        return;
      }
      if (isClientAddedText(block.text)) return;
      const role = message.role === 'assistant' ? 'assistant' : 'user';
      // Claude Code closes an interrupted or unfinished turn with messages of its own: "No response
      // requested." and "Continue from where you left off." (2.1.332 also mid-request).
      if (CLIENT_FILLERS.has(`${role}\u0000${block.text}`)) return;
      texts.push({ role, text: block.text });
    });
  });
  return texts;
}

/**
 * Texts as compared: Claude Code merges consecutive user messages and appends "\n" at the seam,
 * and drops whitespace-only text blocks; both sides are normalised the same way.
 */
export function normaliseTexts(texts: RequestText[]): RequestText[] {
  return texts
    .filter((t) => t.text.trim() !== '' && !CLIENT_FILLERS.has(`${t.role}\u0000${t.text}`) && !(t.role === 'user' && t.text === TOOL_LOADED))
    .map((t) => ({ role: t.role, text: t.text.replace(/\n$/, '') }));
}

/**
 * 2.1.332 adds this after a ToolSearch result when the resuming environment has the tool it names
 * (MCP tools of the user's servers, plan-mode tools in -p mode: not in the harness), so whether it
 * is sent depends on the machine, not the log: compared texts leave it out on both sides.
 */
export const TOOL_LOADED = 'Tool loaded.';

/**
 * 2.1.332 writes a `<task-notification>` of its own on resume for a background task the log left
 * running (status failed: its output file is gone). Such a text is the client's, not the log's.
 */
export function isClientTaskNotification(mismatch: TextMismatch): boolean {
  return mismatch.kind === 'extra' && mismatch.role === 'user' && mismatch.text.startsWith('<task-notification>');
}

/** Characters of the request's `messages` array as JSON: the size measure for "smaller" assertions. */
export function messagesChars(body: any): number {
  return JSON.stringify(messagesOf(body)).length;
}

/** Rough token count of the messages (chars / 4). */
export function messageTokensApprox(body: any): number {
  return Math.ceil(messagesChars(body) / 4);
}

export interface RequestSizes {
  messages: number;
  messagesChars: number;
  systemChars: number;
  toolsCount: number;
  textBlocks: number;
  toolUses: number;
  toolResults: number;
}

export function requestSizes(body: any): RequestSizes {
  const sizes: RequestSizes = {
    messages: messagesOf(body).length,
    messagesChars: messagesChars(body),
    systemChars: JSON.stringify(body?.system ?? '').length,
    toolsCount: Array.isArray(body?.tools) ? body.tools.length : 0,
    textBlocks: 0,
    toolUses: 0,
    toolResults: 0,
  };
  for (const message of messagesOf(body)) {
    for (const block of blocksOf(message)) {
      if (block.type === 'text') sizes.textBlocks++;
      else if (block.type === 'tool_use') sizes.toolUses++;
      else if (block.type === 'tool_result') sizes.toolResults++;
    }
  }
  return sizes;
}

function clip(text: string, n: number): string {
  return JSON.stringify(text.length > n ? `${text.slice(0, n)}…` : text);
}

/** One line per message: role and its blocks, for printing while diagnosing a mismatch. */
export function summarizeRequest(body: any, clipAt = 60): string {
  const lines = [`messages=${messagesOf(body).length} tools=${Array.isArray(body?.tools) ? body.tools.length : 0} chars=${messagesChars(body)}`];
  messagesOf(body).forEach((message, i) => {
    const parts = blocksOf(message).map((block) => {
      switch (block.type) {
        case 'text':
          return `text(${String(block.text).length}):${clip(String(block.text), clipAt)}`;
        case 'thinking':
          return `thinking(${String(block.thinking ?? '').length})`;
        case 'tool_use':
          return `tool_use(${String(block.name)},${String(block.id)})`;
        case 'tool_result': {
          const content = typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
          return `tool_result(${String(block.tool_use_id)}${block.is_error ? ',ERR' : ''},${content.length})`;
        }
        default:
          return String(block.type);
      }
    });
    lines.push(`  [${i}] ${message.role}: ${parts.join(' | ')}`);
  });
  return lines.join('\n');
}

export interface TextMismatch {
  /** missing: predicted but not sent; extra: sent but not predicted. */
  kind: 'missing' | 'extra';
  /** Index in the predicted (missing) or sent (extra) list. */
  index: number;
  role: string;
  text: string;
}

/** The edits between predicted and sent texts (longest common subsequence on role + exact text). */
export function diffTexts(predicted: RequestText[], sent: RequestText[]): TextMismatch[] {
  const key = (t: RequestText) => `${t.role}\u0000${t.text}`;
  const a = predicted.map(key);
  const b = sent.map(key);
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = LCS length of a[i..] and b[j..]
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const out: TextMismatch[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push({ kind: 'extra', index: j, role: sent[j].role, text: sent[j].text });
      j++;
    } else {
      out.push({ kind: 'missing', index: i, role: predicted[i].role, text: predicted[i].text });
      i++;
    }
  }
  return out;
}
