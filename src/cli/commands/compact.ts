// `cmv compact <session>`: deterministic compaction into a new session (or -o FILE).

import chalk from 'chalk';
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { openSession } from '../../session/session.js';
import { resolveSessionArg } from '../../session/locate.js';
import { writeFileAtomic } from '../../session/write.js';
import { checkOutputFile } from '../../session/output-file.js';
import { compactSession, type CompactResult } from '../../graph/compact.js';
import { CmvError } from '../../errors.js';
import { resumeCommand as resumeCommandOf } from '../../text/shell.js';
import { formatCount, plural, formatReduction } from '../format.js';
import { tierOption } from './resume.js';
import { positiveInt } from '../flags.js';
import type { Output } from '../output.js';

export interface CompactCommandOptions {
  keep?: string;
  output?: string;
  force?: boolean;
  tier?: string;
  budget?: string;
}

export interface AppliedCompaction {
  result: CompactResult;
  written: string;
  resumeCommand?: string;
}

export async function compactCommand(target: string, opts: CompactCommandOptions, out: Output): Promise<void> {
  const keep = positiveInt(opts.keep, '--keep');
  const tier = tierOption(opts.tier);
  const budget = positiveInt(opts.budget, '--budget');
  const input = await resolveSessionArg(target);
  const path = opts.output !== undefined ? resolve(opts.output) : undefined;
  if (path === resolve(input)) throw new CmvError('USAGE', 'the output file is the input file', { hint: 'leave out -o to write a new session beside it' });
  if (opts.output !== undefined && path !== resolve(input)) checkOutputFile(opts.output, { force: opts.force });
  const newSessionId = path ? undefined : randomUUID();
  const session = await openSession(input);
  const result = compactSession(session, { keep, tier, budget, newSessionId });
  if (!result.check.ok) {
    // Calls without results and lines that are not JSON the log already had are the input's faults.
    const c = session.conversation;
    const had = [...c.unpairedToolUses, ...c.unpairedToolResults].map((t) => t.id);
    const inherited = (fault: string) => had.some((id) => fault.includes(id)) || (session.malformedLines.length > 0 && fault.startsWith('the output has lines that are not JSON'));
    if (result.check.faults.every(inherited)) {
      throw new CmvError('VERIFY_FAILED', `the log already has ${plural(result.check.faults.length, 'fault')} a compaction would carry over; nothing was written`, {
        hint: `first: ${result.check.faults[0]}; Claude Code reads this log as it is: keep it, or branch from an earlier snapshot`,
        details: result.check,
      });
    }
    throw new CmvError('VERIFY_FAILED', `the compacted log failed its check (${plural(result.check.faults.length, 'fault')}); nothing was written`, {
      hint: `first fault: ${result.check.faults[0]}; please report it with the session's shape (cmv stats --json)`,
      details: result.check,
    });
  }
  const written = path ?? join(dirname(input), `${newSessionId}.jsonl`);
  await writeFileAtomic(
    written,
    (function* () {
      for (const line of result.lines) yield Buffer.concat([line, Buffer.from('\n')]);
    })(),
  );
  const cwd = result.compacted.facts.cwd;
  const resumeCommand = newSessionId ? resumeCommandOf(cwd, newSessionId) : undefined;
  out.render({ result, written, resumeCommand }, renderCompaction, compactionJson);
}

export function compactionJson(applied: AppliedCompaction): unknown {
  const r = applied.result;
  return {
    input: { tokens: r.input.tokens },
    output: { path: applied.written, sessionId: r.output.sessionId ?? null, tokens: r.output.tokens, lines: r.lines.length },
    zones: r.zones,
    summary: { text: r.summary.text, tokens: r.summary.tokens, tier: r.summary.tier, sections: r.summary.sections },
    boundaryUuid: r.boundaryUuid,
    summaryUuid: r.summaryUuid,
    check: r.check,
    resumeCommand: applied.resumeCommand ?? null,
  };
}

export function renderCompaction(applied: AppliedCompaction): string {
  const r = applied.result;
  const saved = r.input.tokens > 0 ? (r.input.tokens - r.output.tokens) / r.input.tokens : 0;
  const lines = [
    `${chalk.bold('Compacted')} ${formatCount(r.input.tokens)} → ${formatCount(r.output.tokens)} tokens (${chalk.green(`${formatReduction(Math.max(0, saved))}`)})`,
    `  zone C: ${plural(r.zones.c.messages, 'message')} (${formatCount(r.zones.c.tokens)} tokens) → summary of ${formatCount(r.summary.tokens)} tokens (${r.summary.tier})`,
    `  zone B: ${plural(r.zones.b.messages, 'message')} since the last prompt (${formatCount(r.zones.b.tokens)} tokens), ${plural(r.zones.b.toolResultsStubbed, 'tool result')} stubbed`,
    `  zone A: ${plural(r.zones.a.messages, 'message')} kept exactly (${formatCount(r.zones.a.tokens)} tokens)`,
    `${chalk.green('checked')}: Claude Code resumes from the summary; ${plural(r.check.sentMessages, 'message')} sent`,
    `wrote ${applied.written}`,
  ];
  if (applied.resumeCommand) lines.push(`resume with: ${chalk.bold(applied.resumeCommand)}`);
  return lines.join('\n');
}
