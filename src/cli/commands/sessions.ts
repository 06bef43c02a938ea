// `cmv sessions`: list every session found, newest first.

import { join } from 'node:path';
import { listSessions, type SessionListing } from '../../session/listing.js';
import { claudeConfigDirs } from '../../session/locate.js';
import type { Output } from '../output.js';
import { formatBytes, formatCount, plural, relativeTime, table } from '../format.js';
import chalk from 'chalk';

export interface SessionsOptions {
  project?: string;
}

export async function sessionsCommand(options: SessionsOptions, out: Output): Promise<void> {
  const configDirs = claudeConfigDirs();
  const sessions = await listSessions({ project: options.project, configDirs });
  // With none to show, say where cmv looked and whether the filter hid them.
  const unfiltered = sessions.length === 0 && options.project ? (await listSessions({ configDirs })).length : 0;
  out.render(sessions, (s) => (s.length === 0 ? noSessions(configDirs, options.project, unfiltered) : renderSessions(s)));
}

export function noSessions(configDirs: string[], project: string | undefined, unfiltered: number): string {
  const where = configDirs.map((d) => join(d, 'projects')).join(', ');
  if (project && unfiltered > 0) return `No session's project matches "${project}" (${plural(unfiltered, 'session')} in ${where}).`;
  return `No sessions found in ${where}. Set CLAUDE_CONFIG_DIR to the folder Claude Code keeps them in, or pass a .jsonl path to other commands.`;
}

/** "claude-opus-4-6-20260101" -> "opus-4-6": the model as a person names it. */
export function modelLabel(model: string | undefined): string {
  if (!model) return '?';
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
}

export function renderSessions(sessions: SessionListing[]): string {
  const rows = [[chalk.bold('id'), chalk.bold('last'), chalk.bold('lines'), chalk.bold('size'), chalk.bold('version'), chalk.bold('model'), chalk.bold('project / first prompt')]];
  for (const s of sessions) {
    rows.push([
      s.id.slice(0, 8),
      relativeTime(Date.parse(s.lastActivity)),
      formatCount(s.lines),
      formatBytes(s.bytes),
      s.version ?? '?',
      modelLabel(s.model),
      `${s.cwd ?? '?'}${s.derivedFrom ? chalk.yellow(` [${s.derivedFrom.by ?? 'copy'} of ${s.derivedFrom.sessionId?.slice(0, 8) ?? '?'}]`) : ''}${s.firstPrompt ? chalk.dim(` — ${s.firstPrompt}`) : ''}`,
    ]);
  }
  return `${table(rows, ['left', 'right', 'right', 'right', 'left', 'left', 'left'])}\n${chalk.dim(plural(sessions.length, 'session'))}`;
}
