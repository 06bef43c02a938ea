// Choices one side puts forward and the other answers: the reply's "I'd go with Polars" made firm
// by "Yes, go with polars" or taken back by "No"; the user's "I was thinking a dropdown" made a
// decision by "A dropdown makes sense" or dropped by "I'd rather not".

import type { ExtractState } from './extract-state.js';
import { agrees, disagrees, type PromptClause } from './prompt-kinds.js';
import { isQuestion, splitChoices } from './decisions.js';
import { sentences, wordCount } from './labels.js';

/**
 * The prompt after a reply that proposed a choice ("I'd suggest Polars"): agreement makes the
 * choice firm, refusal takes it back. Either way the proposals are answered.
 */
export function answerProposals(clauses: PromptClause[], state: ExtractState): void {
  const assistant = state.proposals.filter((p) => p.by === 'assistant');
  if (assistant.length === 0) return;
  const opening = clauses[0]?.text ?? '';
  if (agrees(opening)) {
    for (const p of assistant) p.node.confidence = Math.max(p.node.confidence, 0.85);
  } else {
    // A choice of tool stands unless refused; a course of action only once agreed to.
    for (const p of assistant) if (p.only && (p.tentative || disagrees(opening))) state.builder.remove(p.node);
  }
  state.proposals = state.proposals.filter((p) => p.by !== 'assistant');
}

/** "I was thinking a dropdown in the header", "maybe Redis for this": a choice the user puts forward. */
const SUGGESTION =
  /^(?:(?:ok(?:ay)?|so|and|also|hmm),?\s+)?(?:i was thinking(?: of| about)?|i'?m thinking(?: of| about)?|maybe(?: we could use| use| we use| with)?|perhaps|what if we used?|how about using)\s+(.{2,60}?)[.?!]*$/i;

export function suggestions(text: string, uuid: string, state: ExtractState): void {
  for (const sentence of sentences(text)) {
    const m = SUGGESTION.exec(sentence.trim());
    // "Maybe a typing indicator too?": more work asked for, not a choice of how.
    if (!m || isQuestion(m[1]) || /\b(?:too|as well|also)$/i.test(m[1])) continue;
    for (const item of splitChoices(m[1])) {
      if (wordCount(item.label) > 5) continue;
      const existed = state.builder.find('DECISION', (n) => n.label.toLowerCase() === item.label.toLowerCase()) !== undefined;
      const node = state.builder.mention('DECISION', item.label, { turn: state.turn, uuid, confidence: 0.6, detail: item.why });
      if (node) state.proposals.push({ node, by: 'user', only: !existed });
    }
  }
}

/** The reply to a user's suggestion ("I was thinking a dropdown"): agreement makes it a decision, refusal drops it. */
export function answerSuggestions(opening: string, state: ExtractState): void {
  const open = state.proposals.filter((p) => p.by === 'user');
  if (open.length === 0) return;
  const accepted = agrees(opening) || /\b(?:makes sense|good idea|good call|great idea|works well|agreed)\b/i.test(opening);
  for (const p of open) {
    if (accepted) p.node.confidence = Math.max(p.node.confidence, 0.8);
    else if (disagrees(opening) || /^i'?d (?:rather|avoid|not)\b|^i wouldn'?t\b/i.test(opening)) {
      if (p.only) state.builder.remove(p.node);
    }
  }
  state.proposals = state.proposals.filter((p) => p.by !== 'user');
}
