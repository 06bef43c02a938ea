// `cmv restore <session>`: put back the log as it was before its in-place trims (the first backup
// of the current run, or the one named with --from), with every line appended since; `--list`
// shows the backups. Restoring again changes nothing: a restore never toggles.

import chalk from 'chalk';
import { resolveSessionArg } from '../../session/locate.js';
import { listBackups, type ListedBackup } from '../../trim/backups.js';
import { restoreLog, type RestoreOutcome } from '../../trim/restore.js';
import { appendRestoreRecord } from '../../hooks/trim-journal.js';
import type { Output } from '../output.js';
import { formatBytes, table } from '../format.js';

export interface RestoreCommandOptions {
  list?: boolean;
  from?: string;
}

export async function restoreCommand(target: string, opts: RestoreCommandOptions, out: Output): Promise<void> {
  const path = await resolveSessionArg(target);
  if (opts.list) {
    const backups = await listBackups(path);
    out.render({ path, backups }, renderList);
    return;
  }
  const outcome = await restoreLog(path, { from: opts.from });
  // The hooks' journal notes it, so `cmv hook status` leaves a restored trim out of its totals.
  if (outcome.status !== 'unchanged') await appendRestoreRecord(path, outcome.backupPath);
  out.render(outcome, renderRestore, restoreJson);
}

export function restoreJson(o: RestoreOutcome): unknown {
  if (o.status === 'unchanged') return { status: o.status, path: o.path, reason: o.reason };
  return { status: o.status, path: o.path, restored: o.restored.id, backup: o.backupPath, bytes: o.bytes, carriedBytes: o.carried.carried + o.carried.late, carriedLines: o.carried.lines };
}

function renderRestore(o: RestoreOutcome): string {
  if (o.status === 'unchanged') return o.reason;
  const carried = o.carried.lines ? `; ${o.carried.lines} lines written meanwhile kept after it` : '';
  return `restored ${o.path} from backup ${o.restored.id} (${o.restored.by}, ${o.restored.at})${carried}\n${chalk.dim('lines appended to the log since that trim were kept; restoring again changes nothing')}`;
}

function renderList({ path, backups }: { path: string; backups: ListedBackup[] }): string {
  if (backups.length === 0) return `no backups of ${path}`;
  const rows = backups.map((b) => [
    b.isDefault ? chalk.bold('*') : ' ',
    b.id,
    b.at ?? '',
    b.by ?? b.kind,
    b.bytes === undefined ? '' : formatBytes(b.bytes),
    b.problem ? chalk.dim(b.problem) : 'restorable',
  ]);
  return [`backups of ${path} (newest first; * is what \`cmv restore\` puts back):`, table(rows, ['left', 'left', 'left', 'left', 'right', 'left'])].join('\n');
}
