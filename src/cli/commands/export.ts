// `cmv export <names...> -o FILE`: snapshots with their lineage in one git bundle, secrets
// redacted unless --no-redact.

import { checkOutputFile } from '../../session/output-file.js';
import chalk from 'chalk';
import { openStore } from '../../store/store.js';
import { exportBundle, type ExportResult } from '../../store/bundle.js';
import type { RedactionReport } from '../../store/redact.js';
import type { Output } from '../output.js';
import { CmvError } from '../../errors.js';
import { formatBytes } from '../format.js';

export interface ExportCommandOptions {
  output?: string;
  redact?: boolean;
  force?: boolean;
}

export async function exportCommand(names: string[], opts: ExportCommandOptions, out: Output): Promise<void> {
  if (!opts.output) throw new CmvError('USAGE', 'say where the bundle goes with -o FILE', { hint: 'for example: cmv export auth-work -o auth.bundle' });
  checkOutputFile(opts.output, { force: opts.force });
  const store = await openStore();
  const result = await exportBundle(store, names, opts.output, { redact: opts.redact !== false, force: opts.force });
  if (!result.redacted) out.warn('--no-redact: the bundle holds the sessions exactly as logged, secrets included');
  out.render(result, renderExport);
}

/** "3 secrets redacted: anthropic-key 1, password 2", or what was done instead. */
export function describeRedaction(redacted: boolean, report: RedactionReport): string {
  if (!redacted) return chalk.yellow('not redacted (--no-redact)');
  if (report.total === 0) return 'no secrets found to redact';
  const kinds = Object.entries(report.byKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return chalk.yellow(`${report.total} secret${report.total === 1 ? '' : 's'} redacted: ${kinds}`);
}

export function renderExport(r: ExportResult): string {
  const lines = [`exported ${r.snapshots.map((s) => chalk.cyan(s.name)).join(', ')} with their lineage to ${r.file} (${formatBytes(r.bytes)})`, describeRedaction(r.redacted, r.redaction)];
  for (const s of r.snapshots) {
    if (s.findings?.total)
      lines.push(
        chalk.dim(
          `  ${s.name}: ${Object.entries(s.findings.byKind)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')}`,
        ),
      );
  }
  return lines.join('\n');
}
