// The detail of the selected session, loaded when the selection changes and again when its log
// changed (no more than once per `minReloadMs` for a log being written). Break-even and graph
// follow the detail, each in its own state so the faster parts show first.

import { useEffect, useRef, useState } from 'react';
import type { DashboardSources } from '../sources.js';
import { LOADING, type Availability } from '../data/availability.js';
import type { SessionDetail } from '../data/session-detail.js';
import type { BreakEvenView } from '../data/breakeven.js';
import type { GraphSummaryView } from '../data/graph-summary.js';

export interface DetailState {
  detail: Availability<SessionDetail>;
  breakEven: Availability<BreakEvenView>;
  graph: Availability<GraphSummaryView>;
}

const LOADING_ALL: DetailState = { detail: LOADING, breakEven: LOADING, graph: LOADING };

export function useDetail(sources: DashboardSources, path: string | undefined, version: number, minReloadMs = 5_000): DetailState {
  const [state, setState] = useState<DetailState>(LOADING_ALL);
  const lastLoad = useRef<{ path?: string; at: number }>({ at: 0 });
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!path) return;
    const samePath = lastLoad.current.path === path;
    const wait = samePath ? Math.max(0, lastLoad.current.at + minReloadMs - Date.now()) : 0;
    if (wait > 0) {
      const timer = setTimeout(() => setTick((t) => t + 1), wait);
      return () => clearTimeout(timer);
    }
    let cancelled = false;
    lastLoad.current = { path, at: Date.now() };
    if (!samePath) setState(LOADING_ALL);
    void (async () => {
      try {
        const loaded = await sources.loadDetail(path);
        if (cancelled) return;
        setState((s) => ({ ...s, detail: { state: 'ready', value: loaded.detail } }));
        const [breakEven, graph] = [await sources.loadBreakEven(loaded), await sources.loadGraph(loaded)];
        if (!cancelled) setState({ detail: { state: 'ready', value: loaded.detail }, breakEven, graph });
      } catch (error) {
        if (!cancelled) setState({ detail: { state: 'error', message: (error as Error).message }, breakEven: { state: 'unavailable', reason: '' }, graph: { state: 'unavailable', reason: '' } });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [path, version, tick]);
  return path ? state : { detail: { state: 'unavailable', reason: 'no session selected' }, breakEven: LOADING, graph: LOADING };
}
