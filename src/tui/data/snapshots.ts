// Snapshots and branches of the store, for the session tree. The store module is imported
// dynamically: without it (or without git) the tree shows sessions only and says why. Looking
// never creates the store: with none yet there is simply nothing to show.

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../../data-dir.js';
import { settle, type Availability } from './availability.js';

export interface SnapshotItem {
  name: string;
  kind: 'snapshot' | 'branch';
  /** The session the snapshot was taken of (for a branch: of its snapshot). */
  sessionId?: string;
  createdAt?: string;
  message?: string;
  tags: string[];
  /** A branch: the snapshot it was made from. */
  from?: string;
  /** A branch: the session it was written as. */
  branchSessionId?: string;
  trimmed?: boolean;
  lines?: number;
  bytes?: number;
}

/**
 * Changes whenever a snapshot, branch or removal changes the store (new packs, new or deleted
 * refs): a few stats, so the dashboard asks git only when there is something new.
 */
export function storeSignature(env: NodeJS.ProcessEnv = process.env): string {
  const store = join(dataDir(env), 'store');
  return ['', 'packed-refs', 'objects/pack', 'refs/cmv/snapshots', 'refs/cmv/branches', 'refs/cmv/sessions']
    .map((sub) => {
      try {
        return statSync(join(store, sub)).mtimeMs;
      } catch {
        return 0;
      }
    })
    .join(':');
}

export async function loadSnapshots(env: NodeJS.ProcessEnv = process.env): Promise<Availability<SnapshotItem[]>> {
  if (!existsSync(join(dataDir(env), 'store', 'config'))) return { state: 'ready', value: [] };
  return settle('the snapshot store', async () => {
    const [{ openStore }, { listSnapshots }] = await Promise.all([import('../../store/store.js'), import('../../store/list.js')]);
    const items = await listSnapshots(await openStore(env));
    return items.map((item): SnapshotItem => ({
      name: item.name,
      kind: item.kind,
      sessionId: item.sessionId,
      createdAt: item.createdAt,
      message: item.message,
      tags: item.tags,
      from: item.from,
      branchSessionId: item.branchSessionId,
      trimmed: item.trimmed,
      lines: item.lines,
      bytes: item.bytes,
    }));
  });
}
