// The proof a compacted log must pass before it is written: Claude Code would resume it from the
// new boundary, send the summary first, then every text of zones B and A verbatim and in order,
// with every tool call still paired.

import type { Session } from '../session/session.js';
import { sentTexts, type MessageText } from '../session/payload.js';

export interface CompactionCheck {
  ok: boolean;
  /** Messages Claude Code would send on resume, the summary included. */
  sentMessages: number;
  faults: string[];
}

export function checkCompaction(compacted: Session, summaryUuid: string, kept: MessageText[]): CompactionCheck {
  const c = compacted.conversation;
  const faults: string[] = [];
  const start = c.activePath[0];
  if (!start || start.type !== 'system' || start.subtype !== 'compact_boundary') faults.push('the resumed chain does not start at the new compact boundary');
  if (c.sentMessages[0]?.uuid !== summaryUuid) faults.push('the first message sent is not the compaction summary');

  const sent = sentTexts(compacted).filter((t) => t.uuid !== summaryUuid);
  let at = 0;
  for (const text of kept) {
    while (at < sent.length && !(sent[at].role === text.role && sent[at].text === text.text)) at++;
    if (at === sent.length) {
      faults.push(`a ${text.role} text of the kept zones is missing or out of order: ${JSON.stringify(text.text.slice(0, 60))}`);
      break;
    }
    at++;
  }

  const uses = new Set<string>();
  const results = new Set<string>();
  for (const entry of c.sentMessages) {
    for (const block of entry.blocks) {
      if (!block.toolId) continue;
      if (block.type === 'tool_use') uses.add(block.toolId);
      else if (block.type === 'tool_result') results.add(block.toolId);
    }
  }
  for (const id of uses) if (!results.has(id)) faults.push(`tool call ${id} has no result in the resumed conversation`);
  for (const id of results) if (!uses.has(id)) faults.push(`tool result ${id} answers no call in the resumed conversation`);
  if (compacted.malformedLines.length) faults.push(`the output has lines that are not JSON: ${compacted.malformedLines.join(', ')}`);
  return { ok: faults.length === 0, sentMessages: c.sentMessages.length, faults };
}
