// `cmv push [REMOTE] [names...]`: share snapshots (with lineage) through a git remote, secrets
// redacted unless --no-redact.

import chalk from 'chalk';
import { openStore } from '../../store/store.js';
import { pushSnapshots, type PushResult } from '../../store/remote.js';
import type { Output } from '../output.js';
import { exitCodeFor } from '../exit-codes.js';
import { describeRedaction } from './export.js';

export async function pushCommand(remote: string | undefined, names: string[], opts: { redact?: boolean }, out: Output): Promise<number> {
  const store = await openStore();
  const result = await pushSnapshots(store, remote, names, { redact: opts.redact !== false });
  if (!result.redacted) out.warn('--no-redact: the remote gets the sessions exactly as logged, secrets included');
  out.render(result, renderPush);
  return result.pushed.some((p) => p.status === 'rejected') ? exitCodeFor('CONFLICT') : 0;
}

const MARK = { new: chalk.green('+'), updated: chalk.green('↑'), 'up-to-date': chalk.dim('='), rejected: chalk.red('!') };

export function renderPush(r: PushResult): string {
  const lines = [`pushed to ${r.remote.name} (${r.remote.url}): ${describeRedaction(r.redacted, r.redaction)}`];
  for (const p of r.pushed) lines.push(`  ${MARK[p.status]} ${p.kind} ${chalk.cyan(p.name)} ${p.status}${p.reason ? `: ${p.reason}` : ''}`);
  return lines.join('\n');
}
