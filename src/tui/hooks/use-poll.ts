// The sessions, trims and snapshots the dashboard shows, polled at an interval. State changes
// only when a poll found something new, so an idle poll renders nothing.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { DashboardSources } from '../sources.js';
import type { IndexedSession } from '../data/session-index.js';
import type { TrimRecord } from '../../hooks/trim-journal.js';
import type { SnapshotItem } from '../data/snapshots.js';
import type { Availability } from '../data/availability.js';

export interface PolledData {
  sessions: IndexedSession[];
  trims: TrimRecord[];
  snapshots: Availability<SnapshotItem[]>;
  loaded: boolean;
  /** Poll now (after an action changed something). */
  refresh: () => void;
}

export function usePoll(sources: DashboardSources, intervalMs: number): PolledData {
  const [sessions, setSessions] = useState<IndexedSession[]>([]);
  const [trims, setTrims] = useState<TrimRecord[]>([]);
  const [snapshots, setSnapshots] = useState<Availability<SnapshotItem[]>>({ state: 'loading' });
  const [loaded, setLoaded] = useState(false);
  const journalSize = useRef(-1);
  const snapshotKey = useRef('');
  const storeSeen = useRef<string | undefined>(undefined);
  const poll = useRef<(force?: boolean) => Promise<void>>(async () => {});

  // Polls run one after another: a forced refresh after an action must not be overtaken by a
  // slower poll that started before it and would put back what the store held then.
  const running = useRef<Promise<void>>(Promise.resolve());
  const pollOnce = async (force: boolean) => {
    const refresh = await sources.refreshSessions();
    if (refresh.changed) setSessions(refresh.sessions);
    const records = await sources.loadTrims();
    if (records.length !== journalSize.current) {
      journalSize.current = records.length;
      setTrims(records);
    }
    const signature = sources.storeSignature();
    if (force || signature !== storeSeen.current) {
      storeSeen.current = signature;
      const snaps = await sources.loadSnapshots();
      const key = JSON.stringify(snaps);
      if (key !== snapshotKey.current) {
        snapshotKey.current = key;
        setSnapshots(snaps);
      }
    }
    setLoaded(true);
  };
  poll.current = (force = false) => {
    const next = running.current.catch(() => {}).then(() => pollOnce(force));
    running.current = next;
    return next;
  };

  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const loop = async () => {
      try {
        await poll.current();
      } catch {
        // a log vanished mid-listing: the next poll sees the settled state
      }
      if (!stopped) timer = setTimeout(loop, intervalMs);
    };
    void loop();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [intervalMs]);

  const refresh = useCallback(() => {
    void poll.current(true).catch(() => {});
  }, []);
  return { sessions, trims, snapshots, loaded, refresh };
}
