// The one door to git: simple-git for ordinary commands, and a direct spawn for the plumbing that
// streams through stdin (fast-import, mktree, cat-file). The environment is cleaned of GIT_*
// variables a caller may have set (a hook, another repository), and commits get a fixed identity.

import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { simpleGit, type SimpleGit } from 'simple-git';
import { CmvError } from '../errors.js';

/** Variables that would point git at another repository or change what it writes. */
const LEAKY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_COMMON_DIR',
  'GIT_CEILING_DIRECTORIES',
  'GIT_QUARANTINE_PATH',
];

/**
 * Variables simple-git refuses to pass on (editors, pagers, ssh commands, config paths). None
 * matters to the local commands run through it; network commands (fetch, push, ls-remote) are
 * spawned directly and keep them, so a user's ssh setup still applies.
 */
const REFUSED_BY_SIMPLE_GIT = new Set([
  'editor',
  'git_askpass',
  'git_config_global',
  'git_config_system',
  'git_config_count',
  'git_config',
  'git_editor',
  'git_exec_path',
  'git_external_diff',
  'git_pager',
  'git_proxy_command',
  'git_template_dir',
  'git_sequence_editor',
  'git_ssh',
  'git_ssh_command',
  'pager',
  'prefix',
  'ssh_askpass',
]);

export function cleanGitEnv(extra: Record<string, string> = {}, forSimpleGit = true): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || LEAKY_VARIABLES.includes(key)) continue;
    const lower = key.toLowerCase();
    if (forSimpleGit && (REFUSED_BY_SIMPLE_GIT.has(lower) || lower.startsWith('git_config_key_') || lower.startsWith('git_config_value_'))) continue;
    env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.LC_ALL = 'C';
  return { ...env, ...extra };
}

export function gitMissing(cause?: unknown): CmvError {
  return new CmvError('NOT_FOUND', 'git is not installed or not on PATH', {
    hint: 'cmv keeps snapshots in a git repository: install git (2.29 or later) and try again',
    cause,
  });
}

function isSpawnEnoent(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT' || /spawn git ENOENT/.test(text);
}

/** The git commands that talk to another repository. */
const REMOTE_COMMANDS = new Set(['fetch', 'ls-remote', 'push', 'clone', 'pull']);

/** Turns a failed git call into a CmvError (git missing) or passes it on. */
export function gitFailure(error: unknown, what: string): CmvError {
  if (error instanceof CmvError) return error;
  if (isSpawnEnoent(error)) return gitMissing(error);
  const message = error instanceof Error ? error.message.trim() : String(error);
  // A remote that cannot be reached says nothing of the store: fsck would find nothing wrong.
  const remote = REMOTE_COMMANDS.has(what);
  const hint = remote ? "check the remote's URL (`cmv remote list`), that it is reachable and that you may read or write it; CMV_DEBUG=1 shows more" : 'run `cmv fsck`; CMV_DEBUG=1 shows more';
  return new CmvError('IO', `git ${what} failed: ${message.split('\n')[0]}`, { hint, cause: error, details: message });
}

/** The git subcommand of an argument list (`-c k=v fetch ...` is a fetch). */
function commandName(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c' || args[i] === '-C') i++;
    else if (!args[i].startsWith('-')) return args[i];
  }
  return 'command';
}

export interface StreamResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

export interface StreamOptions {
  /** Bytes for stdin, as chunks; or the path of a file to use as stdin. */
  input?: Iterable<Buffer | string> | { file: string };
  env?: Record<string, string>;
  /** Accept these exit codes besides 0. */
  okCodes?: number[];
}

export class Git {
  readonly dir: string;
  private instance?: SimpleGit;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** simple-git for this repository (made on first use: the folder may not exist before). */
  get simple(): SimpleGit {
    this.instance ??= simpleGit({ baseDir: this.dir, maxConcurrentProcesses: 4, trimmed: false }).env(cleanGitEnv());
    return this.instance;
  }

  /** Runs a git command through simple-git and returns its stdout. */
  async run(args: string[], what = args[0]): Promise<string> {
    try {
      return await this.simple.raw(args);
    } catch (error) {
      throw gitFailure(error, what);
    }
  }

  /** Spawns git with a streamed stdin (plumbing that simple-git cannot feed). */
  stream(args: string[], options: StreamOptions = {}): Promise<StreamResult> {
    return new Promise((resolve, reject) => {
      let inputFd: number | undefined;
      const input = options.input;
      if (input && 'file' in input) inputFd = openSync(input.file, 'r');
      const child = spawn('git', args, {
        cwd: this.dir,
        env: cleanGitEnv(options.env, false),
        stdio: [inputFd ?? 'pipe', 'pipe', 'pipe'],
      });
      if (inputFd !== undefined) closeSync(inputFd);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout!.on('data', (c: Buffer) => out.push(c));
      child.stderr!.on('data', (c: Buffer) => err.push(c));
      const what = commandName(args);
      child.once('error', (error) => reject(isSpawnEnoent(error) ? gitMissing(error) : gitFailure(error, what)));
      child.once('close', (code) => {
        const result = { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 };
        if (code === 0 || options.okCodes?.includes(code ?? -1)) resolve(result);
        else reject(gitFailure(new Error(result.stderr || `exit code ${code}`), what));
      });
      if (child.stdin) {
        child.stdin.on('error', () => {}); // git exiting early reports through its exit code
        if (input && !('file' in input)) {
          void (async () => {
            for (const chunk of input) {
              if (!child.stdin!.write(chunk)) await new Promise((r) => child.stdin!.once('drain', r));
            }
            child.stdin!.end();
          })();
        } else child.stdin.end();
      }
    });
  }
}

/** Fails with a clear error when git cannot be run at all. */
export async function requireGit(): Promise<void> {
  try {
    const version = await simpleGit({ trimmed: true }).env(cleanGitEnv()).version();
    if (!version.installed) throw gitMissing();
  } catch (error) {
    throw error instanceof CmvError ? error : gitMissing(error);
  }
}
