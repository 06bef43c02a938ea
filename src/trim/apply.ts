// Trim and write: where the trimmed log goes (a new session beside the original, a file, or the
// original itself after a backup). Nothing is written unless verification passed.

import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { trimSession, type TrimResult } from './trim.js';
import { refuseUnwritable } from './refusals.js';
import type { TrimOptions } from './options.js';
import { busy } from './backups.js';
import { trimInPlace } from './in-place.js';
import { AtomicWriter, writeFileAtomic } from '../session/write.js';
import { assertSessionLog } from '../session/session-check.js';
import { checkOutputFile } from '../session/output-file.js';
import { resumeCommand } from '../text/shell.js';
import { CmvError } from '../errors.js';
import { derivedTag } from '../session/derived.js';
import { copySideFiles } from '../session/side-files.js';

export type TrimDestination = { kind: 'new-session' } | { kind: 'file'; path: string; force?: boolean } | { kind: 'in-place' } | { kind: 'dry-run' };

export interface AppliedTrim {
  result: TrimResult;
  written?: string;
  sessionId?: string;
  backup?: string;
  resumeCommand?: string;
  /** In place: said to the user (a session written seconds ago). */
  warnings?: string[];
  /** In place: bytes Claude Code appended during the trim, carried into the result. */
  carried?: { before: number; late: number; lines: number };
  /** In place: the trim would not make the log smaller, so it was left as it was. */
  unchanged?: boolean;
}

/** `projectDir`: the session's project now lives there (`--project-dir`), for the disk checks. */
export async function trimToDestination(inputPath: string, options: Partial<TrimOptions>, destination: TrimDestination, projectDir?: string): Promise<AppliedTrim> {
  if (destination.kind === 'in-place') return trimLogInPlace(inputPath, options, projectDir);
  const newSessionId = destination.kind === 'new-session' ? randomUUID() : undefined;
  if (destination.kind === 'file') {
    const out = resolve(destination.path);
    if (out === resolve(inputPath)) {
      throw new CmvError('USAGE', 'the output file is the input file', { hint: 'use --in-place to replace the log (a backup is kept)' });
    }
    checkOutputFile(destination.path, { force: destination.force });
  }
  const outputPath = destination.kind === 'file' ? resolve(destination.path) : destination.kind === 'new-session' ? join(dirname(inputPath), `${newSessionId}.jsonl`) : undefined;
  // Streamed to a temp file beside the output and renamed into place only once verified; a
  // budget trim evicts on the output in memory, so it writes at the end.
  const streamed = outputPath !== undefined && options.budget === undefined;
  const writer = streamed ? await AtomicWriter.open(outputPath) : undefined;
  let result: TrimResult;
  try {
    // A copy beside the original (in-place trims go through trimInPlace and stay the session itself).
    const derive = { by: 'trim' as const, tag: derivedTag(newSessionId ?? randomUUID()) };
    result = await trimSession(inputPath, options, { newSessionId, fileHoldsOnDisk: true, projectDir, writer, derive });
    assertSessionLog(result.index);
    if (destination.kind === 'new-session' && result.index.conversation.isSubagentTranscript) throw subagentNotResumable(inputPath);
  } catch (error) {
    await writer?.abort();
    throw error;
  }
  try {
    refuseUnwritable(result);
  } catch (error) {
    await writer?.abort();
    throw error;
  }
  if (outputPath === undefined) return { result };
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
  if (destination.kind === 'new-session' && sessionId) await copySideFiles(inputPath, join(dirname(outputPath), sessionId));
  // A subagent transcript is no session of its own: its entries carry the parent's id.
  const resumable = destination.kind !== 'file' && !result.index.conversation.isSubagentTranscript;
  return { result, written: outputPath, sessionId, resumeCommand: resumable ? resumeCommandFor(result, sessionId) : undefined };
}

/** In place: backup, trim, and replace the log, carrying what Claude Code appends meanwhile (in-place.ts). */
async function trimLogInPlace(inputPath: string, options: Partial<TrimOptions>, projectDir?: string): Promise<AppliedTrim> {
  const outcome = await trimInPlace(inputPath, { options, by: 'trim --in-place', lockWaitMs: 10_000, projectDir });
  if (outcome.status === 'busy') throw busy(inputPath);
  const result = outcome.result;
  const sessionId = result.output.sessionId;
  if (outcome.status === 'unchanged') return { result, sessionId, warnings: outcome.warnings, unchanged: true };
  const { carried: before, late, lines } = outcome.carried;
  // A subagent transcript trimmed in place is still read only for its parent: no resume command.
  const resumeCommand = result.index.conversation.isSubagentTranscript ? undefined : resumeCommandFor(result, sessionId);
  return { result, written: inputPath, sessionId, backup: outcome.backup, warnings: outcome.warnings, carried: { before, late, lines }, resumeCommand };
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
