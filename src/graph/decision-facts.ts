// What prose adds besides status: the decisions a sentence states (with the proposals the next
// turn answers), the technologies a report shows in use, and the files, endpoints and measures named.

import type { DraftNode } from './graph-builder.js';
import type { DecisionStatement } from './decisions.js';
import { mentionFile, parentTask, type ExtractState } from './extract-state.js';
import { endpointMentions, fileMentions, metricMentions } from './mentions.js';
import { adoptedTechnologies } from './technologies.js';
import type { TextContext } from './text-facts.js';

/** Technologies a report shows in use: implicit choices, linked to the work that used them. */
export function adopted(content: string, work: DraftNode | undefined, ctx: TextContext, state: ExtractState, underWay = false): void {
  for (const name of adoptedTechnologies(content, underWay)) {
    const node = state.builder.mention('DECISION', name, { turn: state.turn, uuid: ctx.uuid, confidence: 0.6, detail: work ? `used for ${work.label}` : undefined });
    state.builder.link(work, node, 'DEPENDS_ON');
  }
}

/** A decision stated in a sentence, linked to what it supersedes and to the turn's task. */
export function decisionFacts(decision: DecisionStatement, ctx: TextContext, state: ExtractState): void {
  const { builder, turn } = state;
  if (decision.offered && ctx.role === 'user') return;
  const confidence = ctx.role === 'user' ? Math.max(decision.confidence, 0.8) : decision.confidence;
  const old = decision.supersedes.map((label) => builder.mention('DECISION', label, { turn, uuid: ctx.uuid, confidence: 0.6 }));
  for (const item of decision.items) {
    const detail = [item.why, item.rejected.length ? `not ${item.rejected.join(', ')}` : ''].filter(Boolean).join('; ') || undefined;
    const existed = decision.proposal && builder.find('DECISION', (n) => n.label.toLowerCase() === item.label.toLowerCase()) !== undefined;
    const node = builder.mention('DECISION', item.label, { turn, uuid: ctx.uuid, confidence, detail });
    if (node && decision.proposal && ctx.role === 'assistant') state.proposals.push({ node, by: 'assistant', only: !existed, tentative: decision.tentative });
    for (const previous of old) builder.link(node, previous, 'SUPERSEDES');
    for (const alternative of item.rejected) {
      const earlier = builder.find('DECISION', (n) => n !== node && n.label.toLowerCase() === alternative.toLowerCase());
      builder.link(node, earlier, 'SUPERSEDES');
    }
    builder.link(node, state.turnTasks[0], 'RELATED_TO');
    // "Decided: the fine-tuning post next": a choice of what to do next is also pending work.
    const next = /^(.+?)\s+next$/i.exec(item.label);
    if (next) builder.link(builder.mention('TASK', next[1], { turn, uuid: ctx.uuid, confidence: 0.6, status: 'pending' }), node, 'IMPLEMENTS');
  }
}

/** Files, endpoints and measured values a sentence names. */
export function mentionFacts(sentence: string, ctx: TextContext, state: ExtractState): void {
  const { builder, turn } = state;
  const base = { turn, uuid: ctx.uuid };
  for (const path of fileMentions(sentence)) mentionFile(state, path, { ...base, confidence: 0.5 });
  for (const endpoint of endpointMentions(sentence)) builder.link(builder.mention('API', endpoint, { ...base, confidence: 0.8 }), parentTask(state), 'PART_OF');
  for (const metric of metricMentions(sentence)) builder.mention('METRIC', metric.name, { ...base, confidence: 0.7, detail: metric.value, replaceDetail: true });
}
