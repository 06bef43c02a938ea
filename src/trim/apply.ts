// Trim and write: where the trimmed log goes (a new session beside the original, a file, or the
// original itself after a backup). Nothing is written unless verification passed.

import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { trimSession, type TrimResult } from './trim.js';
import { refuseUnwritable } from './refusals.js';
import type { TrimOptions } from './options.js';
import { busy } from './backups.js';
import { trimInPlace } from './in-place.js';
import { AtomicWriter, writeFileAtomic } from '../session/write.js';
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
  if (destination.kind === 'in-place') return trimLogInPlace(inputPath, options);
  const newSessionId = destination.kind === 'new-session' ? randomUUID() : undefined;
  if (destination.kind === 'file') {
    const out = resolve(destination.path);
    if (out === resolve(inputPath)) {
      throw new CmvError('USAGE', 'the output file is the input file', { hint: 'use --in-place to replace the log (a backup is kept)' });
    }
    if (existsSync(out) && !destination.force) {
      throw new CmvError('CONFLICT', `${destination.path} already exists`, { hint: 'choose another -o path, or add --force to overwrite it' });
    }
  }
  const outputPath =
    destination.kind === 'file' ? resolve(destination.path) : destination.kind === 'new-session' ? join(dirname(inputPath), `${newSessionId}.jsonl`) : undefined;
  // Streamed to a temp file beside the output and renamed into place only once verified; a
  // budget trim evicts on the output in memory, so it writes at the end.
  const streamed = outputPath !== undefined && options.budget === undefined;
  const writer = streamed ? await AtomicWriter.open(outputPath) : undefined;
  let result: TrimResult;
  try {
    // A copy beside the original (in-place trims go through trimInPlace and stay the session itself).
    const derive = { by: 'trim' as const, tag: derivedTag(newSessionId ?? randomUUID()) };
    result = await trimSession(inputPath, options, { newSessionId, fileHoldsOnDisk: true, projectDir, writer, derive });
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
  return { result, written: outputPath, sessionId, resumeCommand: destination.kind === 'file' ? undefined : resumeCommandFor(result, sessionId) };
}



/** In place: backup, trim, and replace the log, carrying what Claude Code appends meanwhile (in-place.ts). */
async function trimLogInPlace(inputPath: string, options: Partial<TrimOptions>): Promise<AppliedTrim> {
  const outcome = await trimInPlace(inputPath, { options, by: 'trim --in-place', lockWaitMs: 10_000 });
  if (outcome.status === 'busy') throw busy(inputPath);
  const result = outcome.result;
  const sessionId = result.output.sessionId;
  if (outcome.status === 'unchanged') return { result, sessionId, warnings: outcome.warnings, unchanged: true };
  const { carried: before, late, lines } = outcome.carried;
  return { result, written: inputPath, sessionId, backup: outcome.backup, warnings: outcome.warnings, carried: { before, late, lines }, resumeCommand: resumeCommandFor(result, sessionId) };
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Claude Code finds `--resume <id>` only in the project folder of the current directory. */
export function resumeCommandFor(result: TrimResult, sessionId: string | undefined): string | undefined {
  if (!sessionId) return undefined;
  const cwd = result.trimmed.facts.cwd;
  return cwd ? `cd ${shellQuote(cwd)} && claude --resume ${sessionId}` : `claude --resume ${sessionId}`;
}
