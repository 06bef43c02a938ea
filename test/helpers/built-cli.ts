// Runs cmv as a user (or Claude Code) would, `node bin/cmv.js`, from a private build of the current
// sources: a build of dist/ running elsewhere at the same time cannot pull files from under a test.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { acquireLock } from '../../src/lock.js';

export const ROOT = resolve(__dirname, '..', '..');
/** Inside node_modules, so the build resolves its dependencies from the project's. */
export const BUILD = join(ROOT, 'node_modules', '.cache', 'cmv-test-build');
export const BIN = join(BUILD, 'bin', 'cmv.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function fresh(): boolean {
  const built = join(BUILD, 'dist', 'cli', 'main.js');
  const newest = Math.max(newestSource(join(ROOT, 'src')), statSync(join(ROOT, 'bin', 'cmv.js')).mtimeMs);
  return existsSync(built) && existsSync(BIN) && statSync(built).mtimeMs >= newest && statSync(BIN).mtimeMs >= newest;
}

/** Builds the private copy when a source is newer; test files building at once take turns. */
export async function buildIfStale(): Promise<void> {
  if (fresh()) return;
  mkdirSync(join(BUILD, 'bin'), { recursive: true });
  const lock = await acquireLock(join(BUILD, 'build.lock'), 300_000);
  try {
    if (fresh()) return;
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', join(BUILD, 'dist')], { cwd: ROOT, encoding: 'utf8' });
    if (!existsSync(join(BUILD, 'dist', 'cli', 'main.js'))) throw new Error(`build failed:\n${tsc.stdout}${tsc.stderr}`);
    copyFileSync(join(ROOT, 'bin', 'cmv.js'), BIN);
    copyFileSync(join(ROOT, 'package.json'), join(BUILD, 'package.json'));
  } finally {
    await lock.release();
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string;
  /** Default: the project's root. */
  cwd?: string;
}

/** The environment exactly as given, with this process's PATH unless it names one. */
function envOf(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, ...env };
}

export function runCmv(args: string[], env: NodeJS.ProcessEnv, options: RunOptions = {}): CliRun {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: envOf(env), encoding: 'utf8', input: options.input, timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** cmv started in the background, for races and kills. */
export function startCmv(args: string[], env: NodeJS.ProcessEnv, options: Omit<RunOptions, 'input'> = {}): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: envOf(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const done = new Promise<CliRun>((resolvePromise) => child.once('close', (code) => resolvePromise({ code, stdout, stderr })));
  return { child, done };
}
