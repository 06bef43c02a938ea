// The usage the API reported for one response, as the log records it (message.usage): read the
// same way by the full parse (entry.ts) and the skim of large lines (skim.ts).

import type { Usage } from './entry.js';

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function readUsage(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const u = raw as Record<string, unknown>;
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
