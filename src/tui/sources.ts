// Where the dashboard's data and actions come from. The real sources read the Claude config dirs
// and cmv's data folder; tests pass their own.

import type { IndexRefresh } from './data/session-index.js';
import { SessionIndex } from './data/session-index.js';
import type { Availability } from './data/availability.js';
import type { SnapshotItem } from './data/snapshots.js';
import { loadSnapshots, storeSignature } from './data/snapshots.js';
import type { LoadedSession } from './data/session-detail.js';
import { loadSessionDetail } from './data/session-detail.js';
import type { BreakEvenView } from './data/breakeven.js';
import { loadBreakEven } from './data/breakeven.js';
import type { GraphSummaryView } from './data/graph-summary.js';
import { loadGraphSummary } from './data/graph-summary.js';
import { branchAction, deleteSessionAction, deleteSnapshotAction, snapshotAction, trimAction, type ActionResult } from './data/actions.js';
import { readTrimRecords, type TrimRecord } from '../hooks/trim-journal.js';
import type { CmvConfig } from '../config/config-keys.js';

export interface DashboardSources {
  refreshSessions(): Promise<IndexRefresh>;
  loadTrims(): Promise<TrimRecord[]>;
  loadSnapshots(): Promise<Availability<SnapshotItem[]>>;
  /** Changes when the store may hold different snapshots. */
  storeSignature(): string;
  loadDetail(path: string): Promise<LoadedSession>;
  loadBreakEven(loaded: LoadedSession): Promise<Availability<BreakEvenView>>;
  loadGraph(loaded: LoadedSession): Promise<Availability<GraphSummaryView>>;
  snapshot(path: string): Promise<ActionResult>;
  trim(path: string): Promise<ActionResult>;
  branch(snapshot: string): Promise<ActionResult>;
  deleteSession(path: string): Promise<ActionResult>;
  deleteSnapshot(snapshot: string): Promise<ActionResult>;
}

export function defaultSources(config: CmvConfig, configDirs?: string[]): DashboardSources {
  const index = new SessionIndex(configDirs);
  return {
    refreshSessions: () => index.refresh(),
    loadTrims: () => readTrimRecords(),
    loadSnapshots: () => loadSnapshots(),
    storeSignature: () => storeSignature(),
    loadDetail: (path) => loadSessionDetail(path, config['trim.threshold']),
    loadBreakEven: async (loaded) => (loaded.trimResult ? loadBreakEven(loaded.session, loaded.trimResult, config.model) : { state: 'unavailable', reason: 'no trim preview to price' }),
    loadGraph: (loaded) => loadGraphSummary(loaded.session),
    snapshot: snapshotAction,
    trim: (path) => trimAction(path, config['trim.threshold']),
    branch: (snapshot) => branchAction(snapshot, config['trim.threshold']),
    deleteSession: deleteSessionAction,
    deleteSnapshot: deleteSnapshotAction,
  };
}
