// Trim and write: where the trimmed log goes (a new session beside the original, a file, or the
// original itself after a backup). Nothing is written unless verification passed.

import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { trimSession, type TrimResult } from './trim.js';
import type { TrimOptions } from './options.js';
import { backupSession } from './backups.js';
import { AtomicWriter, writeFileAtomic } from '../session/write.js';
import { assertSessionLog } from '../session/session-check.js';
import { checkOutputFile } from '../session/output-file.js';
import { resumeCommand } from '../text/shell.js';
import { CmvError } from '../errors.js';

export type TrimDestination = { kind: 'new-session' } | { kind: 'file'; path: string; force?: boolean } | { kind: 'in-place' } | { kind: 'dry-run' };

export interface AppliedTrim {
  result: TrimResult;
  written?: string;
  sessionId?: string;
  backup?: string;
  resumeCommand?: string;
}

export async function trimToDestination(inputPath: string, options: Partial<TrimOptions>, destination: TrimDestination): Promise<AppliedTrim> {
  const newSessionId = destination.kind === 'new-session' ? randomUUID() : undefined;
  if (destination.kind === 'file') {
    const out = resolve(destination.path);
    if (out === resolve(inputPath)) {
      throw new CmvError('USAGE', 'the output file is the input file', { hint: 'use --in-place to replace the log (a backup is kept)' });
    }
    checkOutputFile(destination.path, { force: destination.force });
  }
  const outputPath =
    destination.kind === 'file' ? resolve(destination.path) : destination.kind === 'in-place' ? inputPath : destination.kind === 'new-session' ? join(dirname(inputPath), `${newSessionId}.jsonl`) : undefined;
  // Streamed to a temp file beside the output and renamed into place only once verified; a
  // budget trim evicts on the output in memory, so it writes at the end.
  const streamed = outputPath !== undefined && options.budget === undefined;
  const writer = streamed ? await AtomicWriter.open(outputPath) : undefined;
  let result: TrimResult;
  try {
    result = await trimSession(inputPath, options, { newSessionId, fileHoldsOnDisk: true, writer });
    assertSessionLog(result.index);
    if (destination.kind === 'new-session' && result.index.conversation.isSubagentTranscript) throw subagentNotResumable(inputPath);
  } catch (error) {
    await writer?.abort();
    throw error;
  }
  if (!result.verify.ok) {
    await writer?.abort();
    throw new CmvError('VERIFY_FAILED', `the trimmed log failed verification (${result.verify.faults.length} faults); nothing was written`, {
      hint: `first fault: ${result.verify.faults[0]?.message ?? '?'}; please report it with the session's shape (cmv stats --json)`,
      details: result.verify,
    });
  }
  if (result.budget && !result.budget.met) {
    throw new CmvError('BUDGET_UNMET', `cannot fit the session into ${result.budget.budget} tokens: ${result.budget.tokensAfter} remain after evicting all that may go; nothing was written`, {
      hint: 'raise --budget, or drop it to keep the lossless trim only',
      details: result.budget,
    });
  }
  if (outputPath === undefined) return { result };
  const backup = destination.kind === 'in-place' ? await backupSession(inputPath) : undefined;
  if (writer) {
    await writer.commit();
  } else {
    const lines = result.lines ?? [];
    await writeFileAtomic(
      outputPath,
      (function* () {
        for (const line of lines) {
          yield line;
          yield '\n';
        }
      })(),
    );
  }
  const sessionId = result.output.sessionId;
  // A subagent transcript is no session of its own: its entries carry the parent's id.
  const resumable = destination.kind !== 'file' && !result.index.conversation.isSubagentTranscript;
  return { result, written: outputPath, sessionId, backup, resumeCommand: resumable ? resumeCommandFor(result, sessionId) : undefined };
}

/**
 * Claude Code resumes the main chain of a log in a project folder; a subagent transcript (its
 * messages all on a side chain, under `<session>/subagents/`) is read only for its parent, so a
 * "new session" made of one could not be resumed.
 */
function subagentNotResumable(path: string): CmvError {
  return new CmvError('USAGE', `${path} is a subagent transcript, not a session Claude Code can resume: cmv makes no new session of it`, {
    hint: 'write the trimmed transcript with -o FILE, or trim it with --in-place (a backup is kept)',
  });
}

export function resumeCommandFor(result: TrimResult, sessionId: string | undefined): string | undefined {
  return sessionId ? resumeCommand(result.trimmed.facts.cwd, sessionId) : undefined;
}
