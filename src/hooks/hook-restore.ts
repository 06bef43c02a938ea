// `cmv hook restore <session>`: puts back the log as it was before the hooks' trims (the first
// backup of the current run, with every line appended since), and tells the size guard so it does
// not trim the restored log again at the next tool call.

import { stat } from 'node:fs/promises';
import { restoreLog } from '../trim/restore.js';
import { appendRestoreRecord, setGuardState } from './trim-journal.js';

export interface HookRestore {
  path: string;
  /** The backup put back; undefined when there was nothing to undo. */
  restored?: string;
  /** Why nothing changed, when nothing did. */
  unchanged?: string;
  bytes: number;
}

export async function restoreHookTrim(path: string, from?: string): Promise<HookRestore> {
  const outcome = await restoreLog(path, { from });
  const bytes = (await stat(path)).size;
  await setGuardState(path, bytes);
  if (outcome.status === 'unchanged') return { path, unchanged: outcome.reason, bytes };
  await appendRestoreRecord(path, outcome.backupPath);
  return { path, restored: outcome.backupPath, bytes };
}
