// `cmv verify <original> <trimmed>`: the proof; exit code 0 only when it holds.

import { plural } from '../../text/quantities.js';
import chalk from 'chalk';
import { openSession } from '../../session/session.js';
import { resolveSessionArg } from '../../session/locate.js';
import { verifySessions, type VerifyReport } from '../../trim/verify.js';
import type { Output } from '../output.js';
import { exitCodeFor } from '../exit-codes.js';
import { CLIENT_MODELS, clientModelFor, isProvenClient, type ClientModel } from '../../session/clients.js';
import { installedClientVersion, parseClientVersion } from '../../session/installed-client.js';
import { CmvError } from '../../errors.js';

export interface VerifyOptions {
  /** The client version that will resume the trimmed log (default: `claude --version` on PATH, else every model). */
  client?: string;
}

/**
 * The client models to check: the one named, else the client installed here, else every model cmv
 * knows (a log may be resumed by any of them).
 */
async function clientsToCheck(named: string | undefined, out: Output): Promise<readonly ClientModel[]> {
  const version = named !== undefined ? parseClientVersion(named) : await installedClientVersion();
  if (named !== undefined && !version) throw new CmvError('USAGE', `--client takes a version such as 2.1.332, not "${named}"`, { hint: `known: ${CLIENT_MODELS.map((m) => m.version).join(', ')}` });
  if (!version) return CLIENT_MODELS;
  if (!isProvenClient(version)) out.warn(`Claude Code ${version} is not one cmv is proven against; checking with the model of ${clientModelFor(version).version} (see README: "Claude Code versions")`);
  return [clientModelFor(version)];
}

export async function verifyCommand(originalArg: string, trimmedArg: string, opts: VerifyOptions, out: Output): Promise<number> {
  const original = await openSession(await resolveSessionArg(originalArg), { findSubagents: false });
  const trimmed = await openSession(await resolveSessionArg(trimmedArg), { findSubagents: false });
  const report = verifySessions(original, trimmed, await clientsToCheck(opts.client, out));
  out.render(report, renderVerify);
  return report.ok ? 0 : exitCodeFor('VERIFY_FAILED');
}

export function renderVerify(v: VerifyReport): string {
  const lines = [
    `${v.ok ? chalk.green('ok') : chalk.red('FAILED')}: user texts ${v.texts.user.kept}/${v.texts.user.total}, assistant texts ${v.texts.assistant.kept}/${v.texts.assistant.total}, tool pairs ${v.toolPairs.intact}/${v.toolPairs.total}, ${plural(v.faults.length, 'fault')}`,
  ];
  if (v.clients?.length) lines.push(`  as resumed by Claude Code ${v.clients.join(' and ')}`);
  for (const f of v.faults.slice(0, 50)) lines.push(`  ${chalk.red(f.kind)}${f.line ? ` (line ${f.line})` : ''}${f.clients ? ` [${f.clients.join(', ')}]` : ''}: ${f.message}`);
  if (v.faults.length > 50) lines.push(`  … ${v.faults.length - 50} more`);
  return lines.join('\n');
}
