// The batch's figures, as the CMV paper's evaluation reports them: reduction (mean, median, min,
// max), the break-even distribution, tiers by tool-result share, per project, and the sessions a
// trim pays most on. Subagent transcripts are counted as files but left out of the distributions:
// nobody resumes them.

import { median } from '../cost/projection.js';
import type { BatchFailure } from './batch-protocol.js';
import type { SessionSummary, Tier } from './session-summary.js';

export type BreakEvenBucket = '<=5' | '6-10' | '11-20' | '21-59' | 'never';

export interface Spread {
  mean: number;
  median: number;
  min: number;
  max: number;
}

export interface TierFigures {
  sessions: number;
  meanReduction: number;
  medianBreakEvenTurns: number | null;
  never: number;
}

export interface ProjectFigures {
  project: string;
  sessions: number;
  bytes: number;
  tokens: number;
  meanReduction: number;
  cost: number;
  saving50: number;
}

export interface Aggregate {
  files: number;
  bytes: number;
  tokens: number;
  sessions: number;
  subagents: number;
  failed: number;
  skipped: number;
  /** What the logged calls of every file cost at the registry's prices, each response once. */
  cost: number;
  /** Cost of responses found again in later files (Claude Code's resume copies), left out of `cost`. */
  repeatedCost: number;
  /** Sessions cmv made from others (trim, branch, compact outputs): their copied responses cost nothing. */
  derived: number;
  reduction: Spread;
  breakEven: Record<BreakEvenBucket, number>;
  breakEvenCold: Record<BreakEvenBucket, number>;
  tiers: Record<Tier, TierFigures>;
  projects: ProjectFigures[];
  topSavings: { path: string; sessionId: string | null; project: string | null; saving50: number; reduction: number; breakEvenTurns: number | null }[];
}

export const BUCKETS: BreakEvenBucket[] = ['<=5', '6-10', '11-20', '21-59', 'never'];

export function bucketOf(turns: number | null): BreakEvenBucket {
  if (turns === null || turns >= 60) return 'never';
  if (turns <= 5) return '<=5';
  if (turns <= 10) return '6-10';
  return turns <= 20 ? '11-20' : '21-59';
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

function spread(values: number[]): Spread {
  if (values.length === 0) return { mean: 0, median: 0, min: 0, max: 0 };
  return {
    mean: round4(values.reduce((a, b) => a + b, 0) / values.length),
    median: round4(median(values) ?? 0),
    min: round4(Math.min(...values)),
    max: round4(Math.max(...values)),
  };
}

function distribution(values: (number | null)[]): Record<BreakEvenBucket, number> {
  const counts = Object.fromEntries(BUCKETS.map((b) => [b, 0])) as Record<BreakEvenBucket, number>;
  for (const v of values) counts[bucketOf(v)]++;
  return counts;
}

function tierFigures(sessions: SessionSummary[]): TierFigures {
  const turns = sessions.map((s) => s.breakEvenTurns).filter((t): t is number => t !== null && t < 60);
  return {
    sessions: sessions.length,
    meanReduction: spread(sessions.map((s) => s.reduction)).mean,
    medianBreakEvenTurns: median(turns),
    never: sessions.length - turns.length,
  };
}

/**
 * Each API response counted once across the files of a batch, as ccusage counts it (by message id
 * and request id): Claude Code itself copies a session's history into the file a resume or a fork
 * starts. The earliest file (by its first timestamp, then path) keeps a response's cost; a later one
 * holding it again moves it to `repeatedCost`. The keys are dropped from the summaries after.
 */
export function countEachResponseOnce(sessions: SessionSummary[]): SessionSummary[] {
  const order = [...sessions].sort((a, b) => (a.firstTimestamp ?? '\uffff').localeCompare(b.firstTimestamp ?? '\uffff') || a.path.localeCompare(b.path));
  const seen = new Set<string>();
  const counted = new Map<SessionSummary, SessionSummary>();
  for (const s of order) {
    let repeated = 0;
    for (const [key, cost] of s.responses ?? []) {
      if (seen.has(key)) repeated += cost;
      else seen.add(key);
    }
    const { responses: _keys, ...rest } = s;
    counted.set(s, repeated > 0 ? { ...rest, cost: round6(s.cost - repeated), repeatedCost: round6(s.repeatedCost + repeated) } : rest);
  }
  return sessions.map((s) => counted.get(s)!);
}

const round6 = (x: number) => Math.round(x * 1_000_000) / 1_000_000;

export function aggregate(all: SessionSummary[], failed: BatchFailure[] = [], skipped: BatchFailure[] = [], top = 10): Aggregate {
  const main = all.filter((s) => s.kind === 'main');
  const byProject = new Map<string, SessionSummary[]>();
  for (const s of main) {
    const key = s.project ?? '(unknown project)';
    byProject.set(key, [...(byProject.get(key) ?? []), s]);
  }
  const projects = [...byProject.entries()].map(([project, list]) => ({
    project,
    sessions: list.length,
    bytes: list.reduce((n, s) => n + s.bytes, 0),
    tokens: list.reduce((n, s) => n + s.tokens, 0),
    meanReduction: spread(list.map((s) => s.reduction)).mean,
    cost: round4(list.reduce((n, s) => n + s.cost, 0)),
    saving50: round4(list.reduce((n, s) => n + s.saving50, 0)),
  }));
  return {
    files: all.length,
    bytes: all.reduce((n, s) => n + s.bytes, 0),
    tokens: all.reduce((n, s) => n + s.tokens, 0),
    sessions: main.length,
    subagents: all.length - main.length,
    failed: failed.length,
    skipped: skipped.length,
    cost: round4(all.reduce((n, s) => n + s.cost, 0)),
    repeatedCost: round4(all.reduce((n, s) => n + (s.repeatedCost ?? 0), 0)),
    derived: all.filter((s) => s.derivedFrom).length,
    reduction: spread(main.map((s) => s.reduction)),
    breakEven: distribution(main.map((s) => s.breakEvenTurns)),
    breakEvenCold: distribution(main.map((s) => s.coldBreakEvenTurns)),
    tiers: {
      heavy: tierFigures(main.filter((s) => s.tier === 'heavy')),
      mixed: tierFigures(main.filter((s) => s.tier === 'mixed')),
      light: tierFigures(main.filter((s) => s.tier === 'light')),
    },
    projects: projects.sort((a, b) => b.saving50 - a.saving50 || b.bytes - a.bytes),
    topSavings: [...main]
      .filter((s) => s.saving50 > 0)
      .sort((a, b) => b.saving50 - a.saving50)
      .slice(0, top)
      .map((s) => ({ path: s.path, sessionId: s.sessionId, project: s.project, saving50: s.saving50, reduction: s.reduction, breakEvenTurns: s.breakEvenTurns })),
  };
}
