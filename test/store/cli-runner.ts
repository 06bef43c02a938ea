// Runs cmv as a user would (`node bin/cmv.js`), from a private build of the current sources, so
// that a build of dist/ running elsewhere at the same time cannot pull files from under a test.
// Used by the tests that need real processes: concurrency, kills, exit codes, PATH.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { acquireLock } from '../../src/store/lock.js';

export const ROOT = resolve(__dirname, '..', '..');
/** Inside node_modules, so the build resolves its dependencies from the project's. */
const BUILD = join(ROOT, 'node_modules', '.cache', 'cmv-store-tests');
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
  return existsSync(built) && existsSync(BIN) && statSync(built).mtimeMs >= newestSource(join(ROOT, 'src'));
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

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cmvSync(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function cmvAsync(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const done = new Promise<Run>((resolvePromise) => child.once('close', (code) => resolvePromise({ code, stdout, stderr })));
  return { child, done };
}
