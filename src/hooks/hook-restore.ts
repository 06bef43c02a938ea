// `cmv hook restore <session>`: puts back the log as it was before the last in-place trim, and
// tells the size guard so it does not trim the restored log again at the next tool call.

import { stat } from 'node:fs/promises';
import { restoreLatestBackup } from '../trim/backups.js';
import { appendRestoreRecord, setGuardState } from './trim-journal.js';

export interface HookRestore {
  path: string;
  restored: string;
  backupOfCurrent?: string;
  bytes: number;
}

export async function restoreHookTrim(path: string): Promise<HookRestore> {
  const result = await restoreLatestBackup(path);
  const bytes = (await stat(path)).size;
  await setGuardState(path, bytes);
  await appendRestoreRecord(path, result.restored);
  return { path, ...result, bytes };
}
