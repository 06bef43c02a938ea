// `cmv restore <session>`: put back the log as it was before the last in-place change.

import { resolveSessionArg } from '../../session/locate.js';
import { restoreLatestBackup } from '../../trim/backups.js';
import { appendRestoreRecord } from '../../hooks/trim-journal.js';
import type { Output } from '../output.js';

export async function restoreCommand(target: string, out: Output): Promise<void> {
  const path = await resolveSessionArg(target);
  const result = await restoreLatestBackup(path);
  // A trim whose backup is put back saved nothing: `cmv hook status` stops counting it.
  await appendRestoreRecord(path, result.restored);
  out.render({ path, ...result }, (r) => `restored ${r.path} from ${r.restored}${r.backupOfCurrent ? `\n(the replaced version is kept at ${r.backupOfCurrent})` : ''}`);
}
