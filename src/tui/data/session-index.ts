// The dashboard's view of the session logs, refreshed by polling: one directory listing with
// stats per poll, and a log is peeked again only when its size or mtime changed. A poll that
// finds nothing new reports `changed: false`, so nothing re-renders.

import { claudeConfigDirs, listSessionFiles, type SessionFile } from '../../session/locate.js';
import { peekSession, type SessionPeek } from '../../session/summary.js';
import { listingOf, type SessionListing } from '../../session/listing.js';

/** A log that grew within this long is shown as being written. */
export const LIVE_MS = 15_000;

export interface IndexedSession extends SessionListing {
  projectFolder: string;
  modifiedMs: number;
  /** Grew since the previous poll, or written within LIVE_MS. */
  live: boolean;
}

export interface IndexRefresh {
  sessions: IndexedSession[];
  changed: boolean;
}

interface Cached {
  bytes: number;
  modifiedMs: number;
  peek: SessionPeek;
}

export class SessionIndex {
  private readonly cache = new Map<string, Cached>();
  private signature = '';

  constructor(
    private readonly configDirs: string[] = claudeConfigDirs(),
    private readonly now: () => number = Date.now,
  ) {}

  private async peek(file: SessionFile): Promise<{ peek: SessionPeek; grew: boolean }> {
    const cached = this.cache.get(file.path);
    if (cached && cached.bytes === file.bytes && cached.modifiedMs === file.modifiedMs) return { peek: cached.peek, grew: false };
    let peek: SessionPeek;
    try {
      peek = await peekSession(file.path);
    } catch {
      peek = { lines: 0 };
    }
    this.cache.set(file.path, { bytes: file.bytes, modifiedMs: file.modifiedMs, peek });
    return { peek, grew: cached !== undefined && file.bytes > cached.bytes };
  }

  async refresh(): Promise<IndexRefresh> {
    const files = await listSessionFiles(this.configDirs);
    const now = this.now();
    const sessions: IndexedSession[] = [];
    for (const file of files) {
      const { peek, grew } = await this.peek(file);
      sessions.push({
        ...listingOf(file, peek),
        projectFolder: file.projectFolder,
        modifiedMs: file.modifiedMs,
        live: grew || now - file.modifiedMs < LIVE_MS,
      });
    }
    const live = new Set(files.map((f) => f.path));
    for (const path of this.cache.keys()) if (!live.has(path)) this.cache.delete(path);
    const signature = sessions.map((s) => `${s.path}:${s.bytes}:${s.modifiedMs}:${s.live ? 1 : 0}`).join('\n');
    const changed = signature !== this.signature;
    this.signature = signature;
    return { sessions, changed };
  }
}
