// `cmv verify <original> <trimmed>`: the proof; exit code 0 only when it holds.

import { plural } from '../../text/quantities.js';
import chalk from 'chalk';
import { openSession } from '../../session/session.js';
import { resolveSessionArg } from '../../session/locate.js';
import { verifySessions, type VerifyReport } from '../../trim/verify.js';
import type { Output } from '../output.js';
import { exitCodeFor } from '../exit-codes.js';

export async function verifyCommand(originalArg: string, trimmedArg: string, out: Output): Promise<number> {
  const original = await openSession(await resolveSessionArg(originalArg), { findSubagents: false });
  const trimmed = await openSession(await resolveSessionArg(trimmedArg), { findSubagents: false });
  const report = verifySessions(original, trimmed);
  out.render(report, renderVerify);
  return report.ok ? 0 : exitCodeFor('VERIFY_FAILED');
}

export function renderVerify(v: VerifyReport): string {
  const lines = [
    `${v.ok ? chalk.green('ok') : chalk.red('FAILED')}: user texts ${v.texts.user.kept}/${v.texts.user.total}, assistant texts ${v.texts.assistant.kept}/${v.texts.assistant.total}, tool pairs ${v.toolPairs.intact}/${v.toolPairs.total}, ${plural(v.faults.length, 'fault')}`,
  ];
  for (const f of v.faults.slice(0, 50)) lines.push(`  ${chalk.red(f.kind)}${f.line ? ` (line ${f.line})` : ''}: ${f.message}`);
  if (v.faults.length > 50) lines.push(`  … ${v.faults.length - 50} more`);
  return lines.join('\n');
}
