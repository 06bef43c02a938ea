// Everything the detail pane shows for one session, from one read of the log: its statistics
// (token composition by kind and by tool), the trim preview (trimSession without a writer: an
// in-memory dry run, reported as `cmv trim --dry-run` reports it), then break-even and graph.

import { openSession, type Session } from '../../session/session.js';
import { sessionStats, type SessionStats } from '../../analyze/session-stats.js';
import { trimSession, type TrimResult } from '../../trim/trim.js';
import type { RemovalCounts } from '../../trim/options.js';
import type { Availability } from './availability.js';

export interface TrimPreviewView {
  tokensBefore: number;
  tokensAfter: number;
  bytesBefore: number;
  bytesAfter: number;
  reduction: { tokens: number; bytes: number };
  /** Rule -> how many things it removed, as `cmv trim` reports them; zero counts left out. */
  removed: [keyof RemovalCounts, number][];
  verified: boolean;
}

export interface SessionDetail {
  path: string;
  stats: SessionStats;
  trim: Availability<TrimPreviewView>;
}

export interface LoadedSession {
  detail: SessionDetail;
  /** Kept for the slower panels (break-even, graph), which reuse it. */
  session: Session;
  trimResult?: TrimResult;
}

export function trimPreviewOf(r: TrimResult): TrimPreviewView {
  return {
    tokensBefore: r.input.tokens,
    tokensAfter: r.output.tokens,
    bytesBefore: r.input.bytes,
    bytesAfter: r.output.bytes,
    reduction: r.reduction,
    removed: (Object.entries(r.removed) as [keyof RemovalCounts, number][]).filter(([, n]) => n > 0),
    verified: r.verify.ok,
  };
}

export async function loadSessionDetail(path: string, threshold: number): Promise<LoadedSession> {
  const session = await openSession(path);
  const stats = sessionStats(session);
  let trim: Availability<TrimPreviewView>;
  let trimResult: TrimResult | undefined;
  try {
    trimResult = await trimSession(path, { threshold });
    trim = { state: 'ready', value: trimPreviewOf(trimResult) };
  } catch (error) {
    trim = { state: 'error', message: (error as Error).message };
  }
  return { detail: { path, stats, trim }, session, trimResult };
}
