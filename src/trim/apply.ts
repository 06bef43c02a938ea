// Trim and write: where the trimmed log goes (a new session beside the original, a file, or the
// original itself after a backup). Nothing is written unless verification passed.

import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { trimSession, type TrimResult } from './trim.js';
import type { TrimOptions } from './options.js';
import { diskChecker } from './disk.js';
import { backupSession } from './backups.js';
import { writeFileAtomic } from '../session/write.js';
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
    if (existsSync(out) && !destination.force) {
      throw new CmvError('CONFLICT', `${destination.path} already exists`, { hint: 'choose another -o path, or add --force to overwrite it' });
    }
  }
  const result = await trimSession(inputPath, options, { newSessionId, fileHolds: diskChecker() });
  if (!result.verify.ok) {
    throw new CmvError('VERIFY_FAILED', `the trimmed log failed verification (${result.verify.faults.length} faults); nothing was written`, {
      hint: `first fault: ${result.verify.faults[0]?.message ?? '?'}; please report it with the session's shape (cmv stats --json)`,
      details: result.verify,
    });
  }
  if (result.budget && !result.budget.met) {
    throw new CmvError('BUDGET_UNMET', `cannot fit the session into ${result.budget.budget} tokens: ${result.budget.tokensAfter} remain after evicting everything but user turns; nothing was written`, {
      hint: 'raise --budget, or drop it to keep the lossless trim only',
      details: result.budget,
    });
  }
  const body = (function* () {
    for (const line of result.lines) {
      yield line;
      yield '\n';
    }
  })();
  switch (destination.kind) {
    case 'dry-run':
      return { result };
    case 'file': {
      const path = resolve(destination.path);
      await writeFileAtomic(path, body);
      return { result, written: path, sessionId: result.output.sessionId };
    }
    case 'in-place': {
      const backup = await backupSession(inputPath);
      await writeFileAtomic(inputPath, body);
      return { result, written: inputPath, sessionId: result.output.sessionId, backup, resumeCommand: resumeCommandFor(result, result.output.sessionId) };
    }
    case 'new-session': {
      const path = join(dirname(inputPath), `${newSessionId}.jsonl`);
      await writeFileAtomic(path, body);
      return { result, written: path, sessionId: newSessionId, resumeCommand: resumeCommandFor(result, newSessionId) };
    }
  }
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
