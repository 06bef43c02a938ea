// `cmv stats <session>`: where the tokens of a session go.

import chalk from 'chalk';
import { openSession } from '../../session/session.js';
import { resolveSessionArg } from '../../session/locate.js';
import { assertSessionLog } from '../../session/session-check.js';
import { sessionStats, type SessionStats } from '../../analyze/session-stats.js';
import type { Output } from '../output.js';
import { bar, formatBytes, formatCount, formatPercent, table, plural } from '../format.js';

export async function statsCommand(target: string, out: Output): Promise<void> {
  const session = await openSession(await resolveSessionArg(target));
  assertSessionLog(session);
  out.render(sessionStats(session), renderStats);
}

const KIND_LABELS: Record<string, string> = {
  userText: 'user text',
  assistantText: 'assistant text',
  thinking: 'thinking',
  toolUseInput: 'tool call inputs',
  toolResult: 'tool results',
  image: 'images',
};

function breakdownRows(values: [string, number][], total: number): string[][] {
  return values.map(([label, n]) => [label, formatCount(n), formatPercent(total ? n / total : 0), bar(total ? n / total : 0, 30)]);
}

export function renderStats(s: SessionStats): string {
  const lines: string[] = [];
  lines.push(`${chalk.bold(s.sessionId ?? s.path)}${s.isSubagentTranscript ? chalk.dim(' (subagent transcript)') : ''}`);
  lines.push(chalk.dim(s.path));
  lines.push(`${s.cwd ?? '?'} · Claude Code ${s.versions.join(', ') || '?'} · ${s.models.join(', ') || 'no model'}`);
  lines.push('');
  lines.push(
    `${plural(s.lines, 'line')}, ${formatBytes(s.bytes)} · ${formatCount(s.messages.user)} user / ${formatCount(s.messages.assistant)} assistant entries · ` +
      `${plural(s.messages.toolUses, 'tool call')} · ${s.compactions} compaction${s.compactions === 1 ? '' : 's'} · ${s.subagents} subagent${s.subagents === 1 ? '' : 's'}`,
  );
  const entryKinds = Object.entries(s.entries)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  lines.push(chalk.dim(`entries: ${entryKinds}`));
  const problems: string[] = [];
  if (s.malformedLines.length) problems.push(`malformed lines ${s.malformedLines.join(', ')}`);
  if (s.gluedLines.length) problems.push(`glued records on lines ${s.gluedLines.join(', ')}`);
  if (s.messages.unpairedToolUses) problems.push(`${plural(s.messages.unpairedToolUses, 'tool call')} without result`);
  if (s.messages.unpairedToolResults) problems.push(`${s.messages.unpairedToolResults} results without call`);
  const unknown = Object.entries(s.unknownTypes).map(([type, n]) => `${type === 'unknown' ? 'without a type' : `"${type}"`} ${n}`);
  if (unknown.length) problems.push(`records of types cmv does not know, kept as they are: ${unknown.join(', ')}`);
  if (problems.length) lines.push(chalk.yellow(`! ${problems.join('; ')}`));
  lines.push('');
  lines.push(chalk.bold(`Context on resume: ${formatCount(s.tokens.total)} tokens in ${plural(s.activeMessages, 'message')}`) + chalk.dim(' (o200k count)'));
  const kinds = Object.entries(s.tokens.byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => [KIND_LABELS[k] ?? k, n] as [string, number]);
  lines.push(table(breakdownRows(kinds, s.tokens.total), ['left', 'right', 'right', 'left']));
  const tools = Object.entries(s.tokens.byTool)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  if (tools.length) {
    lines.push('');
    lines.push(chalk.bold('Tool results by tool'));
    lines.push(table(breakdownRows(tools, s.tokens.byKind.toolResult + s.tokens.byKind.image), ['left', 'right', 'right', 'left']));
  }
  lines.push('');
  const u = s.usage;
  if (u.apiCalls > 0) {
    lines.push(chalk.bold('API usage recorded in the log'));
    lines.push(
      `${plural(u.apiCalls, 'call')} · last context ${formatCount(u.lastContextTokens)} tokens · cache reads ${formatCount(u.cacheReadTokens)} · cache writes ${formatCount(u.cacheWriteTokens)} · output ${formatCount(u.outputTokens)}`,
    );
    const c = s.calibration;
    if (c.ratio !== null) {
      lines.push(chalk.dim(`calibration: API/tokenizer ratio ${c.ratio} + ${formatCount(c.overheadTokens ?? 0)} tokens overhead (system prompt, tools), r² ${c.r2}, ${plural(c.samples, 'call')}`));
    }
  } else {
    lines.push(chalk.dim('No API usage figures in this log.'));
  }
  return lines.join('\n');
}
