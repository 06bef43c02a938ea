// The validator: scores what prose extraction produced and rejects the noise (generic verbs,
// fragments, vague references), then folds near-duplicates of one type into one node. Grounded
// nodes (tool calls, confidence 1) are never rejected.

import type { DraftNode, GraphBuilder } from './graph-builder.js';
import { contentWords, wordCount } from './labels.js';
import type { NodeType } from './model.js';
import { posix } from 'node:path';

/** Labels that say nothing on their own. */
const GENERIC =
  /^(?:(?:fix|do|run|check|try|update|change|continue|go|finish|complete|proceed|start|make|implement|test|commit|review|look at|handle|repeat|retry|undo)(?:\s+(?:it|this|that|them|these|those|again|ahead|now|everything|all|the (?:changes?|issues?|things?|rest|same|code|bug|problem|tests?|above)))*|it|this|that|everything|nothing|something|the (?:changes?|rest|same)|yes|no|ok|okay|done|the fix|these|those|(?:\w+\s+)?(?:something|anything|stuff)(?:\s+(?:up|out|in|else))?|nice|great|cool|thanks|perfect|makes sense|sounds good|good catch|agreed|got it)$/i;
/** A fragment: it ends on a word that needs something after it. */
const DANGLING_END = /\s(?:a|an|the|to|of|for|with|and|or|in|on|at|by|from|as|is|are|was|that|which|when|if|into|via|than|then|but)$/i;
/** A verdict over earlier work ("all leaks fixed", "everything green"): a status, not a piece of work. */
const VERDICT = /^(?:all|every|everything|both)\b(?:\s+\S+){0,3}?\s+(?:are\s+|is\s+|now\s+)?(?:fixed|done|resolved|passing|pass|green|complete|completed|working|closed|addressed|merged|stable)$/i;
/** "Clean it up", "ship that": a verb whose only object is a pronoun says nothing on its own. */
const PRONOUN_OBJECT = /^[a-z]+\s+(?:it|this|that|them|these|those)(?:\s+(?:up|out|down|over|away|again|now|too|please))*$/i;
const VAGUE_START = /^(?:it|this|that|they|these|those|which|here|there)\b/i;
/**
 * A choice that opens on a conjunction, a bare "not" or a suggestion ("but we don't need to commit",
 * "when X fails, the agent type from ...", "How about instead of ...") is the tail of a sentence
 * whose choice was said before it, or a question: on its own it names nothing chosen.
 */
const CHOICE_FRAGMENT = /^(?:but|and|or|so|when|whenever|while|if|unless|not|how about|what about)\b/i;

const PROSE_TYPES: ReadonlySet<NodeType> = new Set<NodeType>(['TASK', 'DECISION', 'ERROR', 'METRIC', 'API']);

/** 0..1: how much a prose-extracted label is worth keeping. */
export function labelScore(node: DraftNode): number {
  const label = node.label;
  if (label.length < 2 || !/[\p{L}\p{N}]/u.test(label)) return 0;
  if (GENERIC.test(label) || (node.type === 'TASK' && (VERDICT.test(label) || PRONOUN_OBJECT.test(label)))) return 0;
  let score = node.confidence;
  if (DANGLING_END.test(label)) score -= 0.3;
  if (VAGUE_START.test(label) && wordCount(label) <= 4) score -= 0.3;
  if (node.type === 'DECISION' && CHOICE_FRAGMENT.test(label)) score -= 0.5;
  if (contentWords(label).size === 0 && !/\d|[A-Z]{2}|[./_-]/.test(label)) score -= 0.3;
  if (wordCount(label) > 14) score -= 0.2;
  if (node.mentions.length > 1) score += 0.1;
  return score;
}

const MIN_SCORE = 0.45;

export function validateGraph(builder: GraphBuilder): { rejected: number; merged: number } {
  let rejected = 0;
  let merged = 0;
  for (const type of PROSE_TYPES) {
    for (const node of builder.all(type)) {
      if (node.confidence >= 1) continue;
      if (labelScore(node) < MIN_SCORE) {
        builder.remove(node);
        rejected++;
      }
    }
    // Near-duplicates: the same content words in nearly the same measure.
    const nodes = builder.all(type).sort((a, b) => b.confidence - a.confidence || a.seq - b.seq);
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        // Two records of the log that give one thing different statuses ("Created task X" done,
        // "X" still to do) are two facts, not one said twice.
        if (nodes[i].status !== nodes[j].status && recorded(nodes[i]) && recorded(nodes[j])) continue;
        if ((jaccard(nodes[i].label, nodes[j].label) >= 0.8 || contains(nodes[i].label, nodes[j].label)) && sameNumbers(nodes[i].label, nodes[j].label)) {
          builder.merge(nodes[j], nodes[i]);
          nodes.splice(j--, 1);
          merged++;
        }
      }
    }
  }
  // "README" or "report.py" named in prose is the file a tool call read or changed.
  const grounded = builder.all('FILE').filter((f) => f.confidence >= 1);
  for (const file of builder.all('FILE')) {
    if (file.confidence >= 1 || file.label.includes('/')) continue;
    const same = grounded.filter((g) => posix.basename(g.label) === file.label || posix.basename(g.label).replace(/\.[^.]+$/, '') === file.label);
    if (same.length === 1) {
      builder.merge(file, same[0]);
      merged++;
    }
  }
  // "Tools: clinic.js, heapdump": a bare name prose gives as a choice is the tool, not a file,
  // unless a tool call or a report of changes grounds it as one.
  const chosen = new Set(builder.all('DECISION').map((d) => d.label.toLowerCase()));
  for (const file of builder.all('FILE')) {
    if (file.confidence < 0.75 && file.status === null && !file.label.includes('/') && chosen.has(file.label.toLowerCase())) {
      builder.remove(file);
      rejected++;
    }
  }
  // "DataTable" inferred from "Completed: DataTable with sorting" is the session's own DataTable.tsx, not a tool it chose.
  const ownNames = new Set(
    builder.all('FILE').map((f) =>
      posix
        .basename(f.label)
        .replace(/\.[^.]+$/, '')
        .toLowerCase(),
    ),
  );
  for (const decision of builder.all('DECISION')) {
    if (decision.confidence < IMPLICIT_CEILING && ownNames.has(decision.label.toLowerCase())) {
      builder.remove(decision);
      rejected++;
    }
  }
  return { rejected, merged };
}

/** Made by a rule that reads the log's own records (tool calls, summaries), not only prose. */
function recorded(node: DraftNode): boolean {
  return node.rules.some((r) => !PROSE_RULE_IDS.has(r));
}
const PROSE_RULE_IDS = new Set(['prompt.ask', 'prompt.turn-status', 'prose.reply']);

/** Decisions below this were inferred from the tools a report names, not stated. */
const IMPLICIT_CEILING = 0.75;

function jaccard(a: string, b: string): number {
  const wa = contentWords(a);
  const wb = contentWords(b);
  if (wa.size < 2 || wb.size < 2) return 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

/** One label's content words all in the other's, four or more of them: one thing said twice. */
function contains(a: string, b: string): boolean {
  const wa = contentWords(a);
  const wb = contentWords(b);
  const [small, large] = wa.size <= wb.size ? [wa, wb] : [wb, wa];
  if (small.size < 4) return false;
  for (const w of small) if (!large.has(w)) return false;
  return true;
}

function sameNumbers(a: string, b: string): boolean {
  const nums = (t: string) => (t.match(/\d+(?:\.\d+)*/g) ?? []).join(',');
  return nums(a) === nums(b);
}
