// Runs the real Claude Code CLI (the devDependency @anthropic-ai/claude-code, pure-JS cli.js)
// offline: a scratch HOME, a clean environment, and ANTHROPIC_BASE_URL pointing at the in-process
// mock API. `resumeAndCapture` installs a session file there, resumes it with `-p --resume`, and
// returns what the CLI sent: the ground truth for "which history does Claude Code send on resume".

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cp, mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
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
  /** The client to resume with (default: the newest under test). */
  client?: ClaudeClient;
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
  /** The client that resumed. */
  client: ClaudeClient;
}

/**
 * A Claude Code client the suite can run: the pure-JS 2.1.100 (`cli.js`, run with node) or a
 * native build such as 2.1.332 (a platform binary shipped through optional dependencies).
 */
export interface ClaudeClient {
  version: string;
  /** cli.js (run with node) or the native binary (executed directly). */
  path: string;
}

/** The clients pinned as devDependencies: the package name each is installed under. */
export const PINNED_CLIENTS: ReadonlyArray<{ version: string; pkg: string }> = [
  { version: '2.1.100', pkg: '@anthropic-ai/claude-code' },
  { version: '2.1.332', pkg: 'claude-code-2.1.332' },
];

/** Where `npm run test:clients` installs a release that is not pinned. */
export const EXTRA_CLIENTS_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'claude-clients');

/** The runnable file of an installed @anthropic-ai/claude-code package: cli.js, else the native binary. */
export function clientExecutable(pkgDir: string): string | undefined {
  if (existsSync(join(pkgDir, 'cli.js'))) return join(pkgDir, 'cli.js');
  const linked = join(pkgDir, 'bin', 'claude.exe');
  // Until the package's postinstall links the platform binary, bin/claude.exe is a small stub.
  if (existsSync(linked) && statSync(linked).size > 1_000_000) return linked;
  // The platform package sits in the node_modules above the package (an alias or a scoped name).
  const modules = dirname(pkgDir).endsWith('@anthropic-ai') ? dirname(dirname(pkgDir)) : dirname(pkgDir);
  const platformPkg = join(modules, '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude');
  if (existsSync(platformPkg)) return platformPkg;
  return undefined;
}

function installedVersion(pkgDir: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function clientAt(pkgDir: string, version?: string): ClaudeClient | undefined {
  const found = installedVersion(pkgDir);
  if (!found || (version && found !== version)) return undefined;
  const path = clientExecutable(pkgDir);
  return path ? { version: found, path } : undefined;
}

/**
 * The clients the e2e suites run against. By default every pinned client that is installed;
 * `CMV_CLAUDE_VERSION=X` narrows to one version (pinned, or installed by `npm run test:clients`),
 * `CMV_E2E_CLAUDE_CLI=<cli.js or binary>` runs that file as the only client.
 */
export function clientsUnderTest(): ClaudeClient[] {
  const override = process.env.CMV_E2E_CLAUDE_CLI;
  if (override && existsSync(override)) return [{ version: process.env.CMV_CLAUDE_VERSION ?? 'custom', path: override }];
  const want = process.env.CMV_CLAUDE_VERSION;
  const clients: ClaudeClient[] = [];
  for (const { version, pkg } of PINNED_CLIENTS) {
    if (want && want !== version) continue;
    const client = clientAt(join(PROJECT_ROOT, 'node_modules', pkg), version);
    if (client) clients.push(client);
  }
  if (want && clients.length === 0) {
    const extra = clientAt(join(EXTRA_CLIENTS_DIR, want, 'node_modules', '@anthropic-ai', 'claude-code'), want);
    if (extra) clients.push(extra);
  }
  return clients;
}

/** The client a test runs when it names none: the first under test (2.1.100 unless narrowed). */
export function defaultClient(): ClaudeClient | undefined {
  return clientsUnderTest()[0];
}

/**
 * The client that writes scripted sessions: 2.1.100 when installed, whose tools (Glob, Grep,
 * TodoWrite, foreground agents) the scripts call; 2.1.332 offers them only when asked.
 */
export function generatingClient(): ClaudeClient | undefined {
  const pinned = PINNED_CLIENTS[0];
  return clientAt(join(PROJECT_ROOT, 'node_modules', pinned.pkg), pinned.version) ?? defaultClient();
}

/** Path of the default client, or undefined when none is installed. */
export function claudeCliPath(): string | undefined {
  return defaultClient()?.path;
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
export function runClaude(args: string[], cwd: string, env: Record<string, string>, timeoutMs = 90_000, client: ClaudeClient | undefined = defaultClient()): Promise<ClaudeRun> {
  if (!client) return Promise.reject(new Error('no Claude Code client installed (npm install puts 2.1.100 and 2.1.332 in node_modules)'));
  const native = !/\.(c|m)?js$/.test(client.path);
  return new Promise((resolvePromise, reject) => {
    // Own process group, so a timeout can end the CLI together with anything it spawned.
    const [command, argv] = native ? [client.path, args] : [process.execPath, [client.path, ...args]];
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
  const client = options.client ?? defaultClient();
  if (!client) throw new Error('no Claude Code client installed (npm install puts 2.1.100 and 2.1.332 in node_modules)');
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
    // Side files Claude Code keeps beside a log (subagents/, tool-results/) go with it, under the new id.
    const side = sessionFile.replace(/\.jsonl$/, '');
    if (side !== sessionFile && existsSync(side) && statSync(side).isDirectory()) await cp(side, join(projectDir, sessionId), { recursive: true });

    const env = offlineEnv(mock.url, {
      HOME: home,
      DISABLE_AUTO_COMPACT: '1', // a large last `usage` would otherwise compact before sending
      CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE: '100000000',
      ...options.env,
    });
    const args = ['-p', options.prompt ?? 'hi', '--resume', sessionId, '--output-format', 'json', '--permission-mode', 'bypassPermissions'];
    const started = Date.now();
    const run = await runClaude(args, cwd, env, options.timeoutMs ?? 60_000, client);
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
      client,
    };
  } finally {
    await mock.close();
    if (!keep) await rm(scratch, { recursive: true, force: true });
    else process.stderr.write(`cmv e2e: kept scratch dir ${scratch}\n`);
  }
}
