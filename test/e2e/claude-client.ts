// Runs the real Claude Code CLI (the devDependency @anthropic-ai/claude-code, pure-JS cli.js)
// offline: a scratch HOME, a clean environment, and ANTHROPIC_BASE_URL pointing at the in-process
// mock API. `resumeAndCapture` installs a session file there, resumes it with `-p --resume`, and
// returns what the CLI sent: the ground truth for "which history does Claude Code send on resume".

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start as startMock, type RecordedRequest } from './mock-api.js';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FAKE_API_KEY = 'sk-ant-api03-cmv-e2e-mock-key-00000000000000000000';

export interface ResumeOptions {
  /** The prompt of the resumed turn (default "hi"). */
  prompt?: string;
  /** Project dir to run in; default a fresh dir inside the scratch area. */
  cwd?: string;
  /** Kill the CLI after this long (default 60 s). */
  timeoutMs?: number;
  /** Extra environment for the CLI. */
  env?: Record<string, string>;
  /** The client to run (a cli.js, or a native binary such as claude-code-2.1.332's); default claudeCliPath(). */
  cli?: string;
}

export interface ResumeCapture {
  /** The CLI exited 0 and sent a main-loop request. */
  ok: boolean;
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Body of the LAST main-loop POST /v1/messages (non-empty `tools`). */
  request?: any;
  allRequests: RecordedRequest[];
  /** The uuid the session was installed under. */
  sessionId: string;
  durationMs: number;
  /** Scratch dir, only still on disk with CMV_E2E_KEEP=1. */
  scratchDir: string;
}

/** Today's client (2.1.332, a native binary), or undefined when its devDependency is not installed. */
export function nativeClaudePath(): string | undefined {
  const path = join(PROJECT_ROOT, 'node_modules', 'claude-code-2.1.332', 'bin', 'claude.exe');
  return existsSync(path) ? path : undefined;
}

/** Path of the CLI's cli.js, or undefined when the devDependency is not installed. */
export function claudeCliPath(): string | undefined {
  const candidates = [
    process.env.CMV_E2E_CLAUDE_CLI,
    join(PROJECT_ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'cli.js'),
  ];
  return candidates.find((p): p is string => !!p && existsSync(p));
}

/** Claude Code's project folder name for a cwd: every char outside [A-Za-z0-9] becomes '-'. */
export function encodeProjectDir(cwd: string): string {
  const encoded = cwd.replace(/[^A-Za-z0-9]/g, '-');
  // Longer names get truncated + hashed by the CLI; scratch dirs never get there.
  if (encoded.length > 200) throw new Error(`cwd too long for the simple project-dir encoding: ${cwd}`);
  return encoded;
}

/** The file with every top-level `sessionId` of its JSON-object lines set to `sessionId`; other lines verbatim. */
export function rewriteSessionId(text: string, sessionId: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.trim() === '') return line;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return line;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value) || !('sessionId' in value)) return line;
      return JSON.stringify({ ...(value as Record<string, unknown>), sessionId });
    })
    .join('\n');
}

export interface ClaudeRun {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` in `cwd`, killed with everything it spawned after `timeoutMs`. */
export function runClaude(args: string[], cwd: string, env: Record<string, string>, timeoutMs = 90_000, cli = claudeCliPath()): Promise<ClaudeRun> {
  if (!cli) return Promise.reject(new Error('Claude Code CLI not installed (node_modules/@anthropic-ai/claude-code/cli.js)'));
  return new Promise((resolvePromise, reject) => {
    // Own process group, so a timeout can end the CLI together with anything it spawned.
    // A cli.js runs under node; a native client (2.1.332's claude.exe) runs as it is.
    const [command, argv] = cli.endsWith('.js') ? [process.execPath, [cli, ...args]] : [cli, args];
    const child = spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ exitCode: code, timedOut, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** The environment of an offline run: nothing of this machine's but PATH, the API at `apiUrl`. */
export function offlineEnv(apiUrl: string, env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'dumb',
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    IS_SANDBOX: '1', // bypassPermissions is refused for root without it
    ...env,
  };
}

/** How a run ended, for an assertion's message. */
export function describeRun(label: string, run: Pick<ClaudeRun, 'exitCode' | 'timedOut' | 'stderr'> & { durationMs?: number }): string {
  const took = run.durationMs === undefined ? '' : ` in ${run.durationMs} ms`;
  return `${label}: exit ${run.exitCode}${run.timedOut ? ' (timed out)' : ''}${took}; stderr: ${run.stderr.slice(0, 400)}`;
}

/** A session log made of `lines`, one per line, as Claude Code writes them. */
export function writeSessionLines(path: string, lines: Buffer[]): void {
  writeFileSync(path, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
}

export async function resumeAndCapture(sessionFile: string, options: ResumeOptions = {}): Promise<ResumeCapture> {
  if (!claudeCliPath()) throw new Error('Claude Code CLI not installed (node_modules/@anthropic-ai/claude-code/cli.js)');
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'cmv-e2e-')));
  const keep = process.env.CMV_E2E_KEEP === '1';
  const mock = await startMock({ maxLifetimeMs: (options.timeoutMs ?? 60_000) + 30_000 });
  try {
    const home = join(scratch, 'home');
    await mkdir(options.cwd ?? join(scratch, 'project'), { recursive: true });
    const cwd = await realpath(options.cwd ?? join(scratch, 'project'));
    const sessionId = randomUUID();
    const projectDir = join(home, '.claude', 'projects', encodeProjectDir(cwd));
    await mkdir(projectDir, { recursive: true });
    const installed = join(projectDir, `${sessionId}.jsonl`);
    await writeFile(installed, rewriteSessionId(await readFile(sessionFile, 'utf8'), sessionId), { mode: 0o600 });

    const env = offlineEnv(mock.url, {
      HOME: home,
      DISABLE_AUTO_COMPACT: '1', // a large last `usage` would otherwise compact before sending
      CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE: '100000000',
      ...options.env,
    });
    const args = ['-p', options.prompt ?? 'hi', '--resume', sessionId, '--output-format', 'json', '--permission-mode', 'bypassPermissions'];
    const started = Date.now();
    const run = await runClaude(args, cwd, env, options.timeoutMs ?? 60_000, options.cli);
    const durationMs = Date.now() - started;
    if (keep) {
      await writeFile(join(scratch, 'requests.json'), JSON.stringify(mock.requests, null, 1));
      await writeFile(join(scratch, 'claude.stdout'), run.stdout);
      await writeFile(join(scratch, 'claude.stderr'), run.stderr);
    }
    const allRequests = [...mock.requests];
    const main = allRequests.filter((r) => r.kind === 'main' && r.path === '/v1/messages');
    const request = main.at(-1)?.body;
    return {
      ok: run.exitCode === 0 && request !== undefined,
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      stdout: run.stdout,
      stderr: run.stderr,
      request,
      allRequests,
      sessionId,
      durationMs,
      scratchDir: scratch,
    };
  } finally {
    await mock.close();
    if (!keep) await rm(scratch, { recursive: true, force: true });
    else process.stderr.write(`cmv e2e: kept scratch dir ${scratch}\n`);
  }
}
