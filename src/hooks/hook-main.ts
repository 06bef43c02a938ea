// The process Claude Code starts for a cmv hook (`cmv hook run <kind>`): read the event from stdin,
// run it under a deadline, and exit 0 whatever happens, with errors going to hooks/hook.log. A
// hook must never block or fail Claude Code. bin/cmv.js loads this module directly (fast start).

import { readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { loadConfigOrDefaults } from '../config/config-file.js';
import type { HookKind } from './hook-entries.js';
import { parseHookInput, runHook, type HookInput } from './run-hook.js';
import { logHookMessage } from './trim-journal.js';

const STDIN_LIMIT = 1024 * 1024;
const STDIN_WAIT_MS = 5_000;

/** Claude Code's JSON, read until end of input, 1 MB or a few seconds, whichever comes first. */
function readInput(stdin: NodeJS.ReadableStream, waitMs = STDIN_WAIT_MS): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, waitMs);
    stdin.on('data', (chunk: Buffer) => {
      chunks.push(Buffer.from(chunk));
      size += chunk.length;
      if (size > STDIN_LIMIT) done();
    });
    stdin.once('end', done);
    stdin.once('error', done);
  });
}

/** Temp files this process left beside the log when the deadline cut a trim short. */
async function removeOurTemps(path: string): Promise<void> {
  const prefix = `.${basename(path)}.${process.pid}.`;
  const dir = dirname(path);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith(prefix) && (name.endsWith('.tmp') || name.endsWith('.tmp.pass1'))) await unlink(join(dir, name)).catch(() => {});
  }
}

async function log(message: string): Promise<void> {
  try {
    await logHookMessage(message);
  } catch (error) {
    process.stderr.write(`cmv hook: ${message} (and the hook log could not be written: ${(error as Error).message})\n`);
  }
}

export interface HookMainOptions {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /** Overrides hook.timeoutSeconds (tests). */
  timeoutMs?: number;
}

/** Runs one hook; the returned exit code is always 0. */
export async function hookMain(kindArg: string | undefined, options: HookMainOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  if (kindArg !== 'pre-compact' && kindArg !== 'size-guard') {
    await log(`unknown hook "${kindArg ?? ''}" (expected pre-compact or size-guard); nothing done`);
    return 0;
  }
  const kind: HookKind = kindArg;
  const { values: config, problem } = await loadConfigOrDefaults();
  if (problem) await log(`${kind}: config unreadable, defaults used: ${problem}`);
  const timeoutMs = options.timeoutMs ?? config['hook.timeoutSeconds'] * 1000;
  const started = Date.now();
  let input: HookInput | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    input = parseHookInput(await readInput(options.stdin ?? process.stdin, Math.min(STDIN_WAIT_MS, timeoutMs)));
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(0, timeoutMs - (Date.now() - started)));
    });
    // The log is not replaced in the last second before the deadline: the process may exit then.
    const running = runHook(kind, input, { config, deadline: started + timeoutMs - 1_000 });
    running.catch(() => {}); // after the deadline its failure is nobody's: the caller exits
    const outcome = await Promise.race([running, deadline]);
    if (outcome === 'timeout') {
      await removeOurTemps(input.transcript_path);
      await log(`${kind} ${input.transcript_path}: gave up after ${Math.round(timeoutMs / 1000)}s (hook.timeoutSeconds); the log was left as it was`);
      return 0;
    }
    for (const note of outcome.notes) await log(`${kind} ${input.transcript_path}: ${note}`);
    if (outcome.message) stdout.write(`${outcome.message}\n`);
  } catch (error) {
    await log(`${kind} ${input?.transcript_path ?? '(no transcript)'}: ${(error as Error).message}${process.env.CMV_DEBUG === '1' ? `\n${(error as Error).stack}` : ''}`);
  } finally {
    clearTimeout(timer);
  }
  return 0;
}
