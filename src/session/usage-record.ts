// Fields of a record read the same way by the full parse (entry.ts) and the skim of large lines
// (skim.ts): the usage the API reported (message.usage), the copy marks of a derived session, a
// compaction's preserved segment, and which records carry a conversation message.

import type { AdvisorUsage, DerivedFacts, PreservedSegment, SessionEntry, Usage } from './entry.js';

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function readUsage(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const u = raw as Record<string, unknown>;
  const usage: Usage = tokenFigures(u);
  // Seen in 2.1.2xx logs (claude-opus-5 with an advisor): the top-level figures are the sum of the
  // 'message' iterations alone; an 'advisor_message' iteration's tokens appear nowhere else.
  if (Array.isArray(u.iterations)) {
    const advisor: AdvisorUsage[] = [];
    for (const it of u.iterations as unknown[]) {
      if (!it || typeof it !== 'object') continue;
      const i = it as Record<string, unknown>;
      if (i.type !== 'advisor_message') continue;
      advisor.push({ ...tokenFigures(i), model: str(i.model) });
    }
    if (advisor.length > 0) usage.advisorCalls = advisor;
  }
  return usage;
}

function tokenFigures(u: Record<string, unknown>): Usage {
  const usage: Usage = {
    inputTokens: num(u.input_tokens),
    cacheCreationTokens: num(u.cache_creation_input_tokens),
    cacheReadTokens: num(u.cache_read_input_tokens),
    outputTokens: num(u.output_tokens),
  };
  const split = u.cache_creation as Record<string, unknown> | undefined;
  if (split && typeof split === 'object') {
    usage.cacheCreation5mTokens = num(split.ephemeral_5m_input_tokens);
    usage.cacheCreation1hTokens = num(split.ephemeral_1h_input_tokens);
  }
  return usage;
}

/** Entry types whose `message` is a conversation message (api-request-blob lines carry a copy of one). */
export const MESSAGE_ENTRY_TYPES: ReadonlySet<string> = new Set(['user', 'assistant']);

export function readDerived(raw: unknown): DerivedFacts | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  return { from: str(o.from), by: str(o.by), messageId: str(o.messageId), requestId: str(o.requestId), usage: readUsage(o.usage) };
}

export function readPreservedSegment(metadata: unknown): PreservedSegment | undefined {
  const seg = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>).preservedSegment : undefined;
  if (!seg || typeof seg !== 'object') return undefined;
  const { headUuid, anchorUuid, tailUuid } = seg as Record<string, unknown>;
  return typeof headUuid === 'string' && typeof anchorUuid === 'string' && typeof tailUuid === 'string' ? { headUuid, anchorUuid, tailUuid } : undefined;
}

/**
 * Lines that are not user or assistant messages keep no message shape: an `api-request-blob` line
 * (2.1.332) holds a copy of a sent message, and its tool calls are no calls of the conversation.
 */
export function withoutForeignMessage(entry: SessionEntry): SessionEntry {
  if (MESSAGE_ENTRY_TYPES.has(entry.type) || (entry.blocks.length === 0 && entry.messageId === undefined && entry.usage === undefined)) return entry;
  entry.blocks = [];
  entry.contentIsString = false;
  entry.role = undefined;
  entry.messageId = undefined;
  entry.model = undefined;
  entry.usage = undefined;
  return entry;
}
