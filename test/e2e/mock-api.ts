// A minimal, offline stand-in for the Anthropic Messages API, for driving the real Claude Code CLI
// in end-to-end tests. It listens on 127.0.0.1 only (random port), answers every message request
// with one short assistant text (or, for scripted sessions, the next scripted answer: text,
// thinking, tool calls), records every request body, and shuts itself down after a bounded
// lifetime so a forgotten server can never outlive the test run for long.

import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/** main: the agent loop (carries a non-empty `tools` array); side: title generation and other helpers. */
export type RequestKind = 'main' | 'side' | 'count_tokens' | 'other';

export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  kind: RequestKind;
  /** Parsed JSON body; `{ _unparsed }` when it was not JSON; null when empty. */
  body: any;
}

export interface MockApi {
  /** Base URL for ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Every request received so far, in arrival order (live array). */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface MockOptions {
  /** Text of every main-loop answer. */
  replyText?: string;
  /** Text of every side-call answer (session titles and the like). */
  sideText?: string;
  /** The server closes itself after this long (default 10 minutes). */
  maxLifetimeMs?: number;
  /**
   * The answer to a main-loop request (scripted sessions); undefined falls back to `replyText`.
   * Called once per main-loop request, in arrival order.
   */
  mainReply?: (body: any) => MockReply | undefined;
}

const HOST = '127.0.0.1';

function approxTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
}

function classify(method: string, path: string, body: any): RequestKind {
  if (method !== 'POST' || !path.startsWith('/v1/messages')) return 'other';
  if (path === '/v1/messages/count_tokens') return 'count_tokens';
  return Array.isArray(body?.tools) && body.tools.length > 0 ? 'main' : 'side';
}

/** A fixed alphanumeric digest of `text` (43 chars). */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').replace(/[-_]/g, 'x');
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A block of a scripted assistant answer; ids and signatures are filled in by the mock. */
export type MockBlock = { type: 'text'; text: string } | { type: 'thinking'; thinking: string; signature?: string } | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string };

/** One assistant message: `stop_reason` is `tool_use` when it asks for a tool, else `end_turn`. */
export interface MockReply {
  content: MockBlock[];
}

function answerMessages(res: http.ServerResponse, body: any, reply: MockReply, nextId: () => string): void {
  const content = reply.content.map((block) => {
    if (block.type === 'tool_use') return { type: 'tool_use', id: block.id ?? nextId(), name: block.name, input: block.input };
    if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking, signature: block.signature ?? `mocksig_${digest(block.thinking)}` };
    return { type: 'text', text: block.text };
  });
  const stopReason = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const inputTokens = approxTokens(body?.messages) + approxTokens(body?.system) + approxTokens(body?.tools);
  const usage = { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: approxTokens(content) };
  const message = {
    id: `msg_mock_${randomBytes(10).toString('hex')}`,
    type: 'message',
    role: 'assistant',
    model: typeof body?.model === 'string' ? body.model : 'claude-mock',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
  const requestId = `req_mock_${randomBytes(10).toString('hex')}`;
  if (!body?.stream) {
    res.setHeader('request-id', requestId);
    sendJson(res, 200, message);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': requestId });
  const event = (name: string, data: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  event('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  content.forEach((block, index) => {
    const delta = (d: unknown) => event('content_block_delta', { type: 'content_block_delta', index, delta: d });
    if (block.type === 'text') {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      delta({ type: 'text_delta', text: block.text });
    } else if (block.type === 'thinking') {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      delta({ type: 'thinking_delta', thinking: block.thinking });
      delta({ type: 'signature_delta', signature: block.signature });
    } else {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      delta({ type: 'input_json_delta', partial_json: JSON.stringify(block.input) });
    }
    event('content_block_stop', { type: 'content_block_stop', index });
  });
  event('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage });
  event('message_stop', { type: 'message_stop' });
  res.end();
}

export async function start(options: MockOptions = {}): Promise<MockApi> {
  const replyText = options.replyText ?? 'OK (mock reply).';
  const sideText = options.sideText ?? 'Mock session title';
  const requests: RecordedRequest[] = [];
  let seq = 0;
  let toolIds = 0;
  // Shaped like the API's ids, unique per server, and the same on every run so that token counts
  // of generated sessions do not wander with random ids.
  const nextToolId = () => `toolu_01${digest(`tool ${++toolIds}`).slice(0, 22)}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      if (raw) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = { _unparsed: raw.slice(0, 10_000) };
        }
      }
      const method = req.method ?? 'GET';
      const path = new URL(req.url ?? '/', 'http://mock').pathname;
      const kind = classify(method, path, body);
      requests.push({ seq: ++seq, method, path, kind, body });
      try {
        if (kind === 'count_tokens') return sendJson(res, 200, { input_tokens: approxTokens(body?.messages) + approxTokens(body?.system) + approxTokens(body?.tools) });
        if (method === 'POST' && path === '/v1/messages') {
          const reply: MockReply = kind === 'main' ? (options.mainReply?.(body) ?? { content: [{ type: 'text', text: replyText }] }) : { content: [{ type: 'text', text: sideText }] };
          return answerMessages(res, body, reply, nextToolId);
        }
        if (method === 'HEAD') {
          res.writeHead(200);
          return res.end();
        }
        if (method === 'GET' && (path === '/' || path === '/health')) return sendJson(res, 200, {});
        return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock: no route for ${method} ${path}` } });
      } catch (error) {
        if (!res.headersSent) sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(error) } });
        else res.end();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      clearTimeout(lifetime);
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };
  const lifetime = setTimeout(() => void close(), options.maxLifetimeMs ?? 10 * 60_000);
  lifetime.unref();

  return { url: `http://${HOST}:${port}`, requests, close };
}
