// Importance: a base by node type, raised by every reference, each reference fading with the
// turns of inactivity since it was made. Pure arithmetic on turn numbers, so it is deterministic.

import type { NodeType } from './model.js';

const BASE: Record<NodeType, number> = {
  GOAL: 0.8,
  TASK: 0.4,
  DECISION: 0.4,
  ERROR: 0.35,
  FILE: 0.25,
  TEST: 0.3,
  AGENT: 0.25,
  API: 0.25,
  SCHEMA: 0.25,
  DEPENDENCY: 0.2,
  ENVIRONMENT: 0.2,
  METRIC: 0.15,
  PROJECT: 0.3,
  CONCEPT: 0.15,
};

/** How much one reference adds, before decay. */
const REFERENCE_WEIGHT = 0.35;
/** What remains of a reference's weight after each later turn. */
const DECAY_PER_TURN = 0.85;

export function importanceOf(node: { type: NodeType; mentions: number[] }, lastTurn: number): number {
  let activity = 0;
  for (const turn of node.mentions) activity += REFERENCE_WEIGHT * DECAY_PER_TURN ** Math.max(0, lastTurn - turn);
  const base = BASE[node.type];
  return Math.round((base + (1 - base) * (1 - Math.exp(-activity))) * 1000) / 1000;
}
