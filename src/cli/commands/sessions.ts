// `cmv sessions`: list every session found, newest first.

import { listSessions, type SessionListing } from '../../session/listing.js';
import type { Output } from '../output.js';
import { formatBytes, formatCount, relativeTime, table } from '../format.js';
import chalk from 'chalk';

export interface SessionsOptions {
  project?: string;
}

export async function sessionsCommand(options: SessionsOptions, out: Output): Promise<void> {
  const sessions = await listSessions({ project: options.project });
  out.render(sessions, renderSessions);
}

export function renderSessions(sessions: SessionListing[]): string {
  if (sessions.length === 0) return 'No sessions found. Set CLAUDE_CONFIG_DIR, or pass a .jsonl path to other commands.';
  const rows = [[chalk.bold('id'), chalk.bold('last'), chalk.bold('lines'), chalk.bold('size'), chalk.bold('version'), chalk.bold('project / first prompt')]];
  for (const s of sessions) {
    rows.push([
      s.id.slice(0, 8),
      relativeTime(Date.parse(s.lastActivity)),
      formatCount(s.lines),
      formatBytes(s.bytes),
      s.version ?? '?',
      `${s.cwd ?? '?'}${s.derivedFrom ? chalk.yellow(` [${s.derivedFrom.by ?? 'copy'} of ${s.derivedFrom.sessionId?.slice(0, 8) ?? '?'}]`) : ''}${s.firstPrompt ? chalk.dim(` — ${s.firstPrompt}`) : ''}`,
    ]);
  }
  return `${table(rows, ['left', 'right', 'right', 'right', 'left', 'left'])}\n${chalk.dim(`${sessions.length} session${sessions.length === 1 ? '' : 's'}`)}`;
}
