// Runs the built CLI (`node bin/cmv.js`) as Claude Code or a user would, building it first when
// the sources are newer than dist/.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'cmv.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function buildIfStale(): void {
  const built = join(ROOT, 'dist', 'cli', 'main.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource(join(ROOT, 'src'))) return;
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`build failed:\n${tsc.stdout}${tsc.stderr}`);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCmv(args: string[], env: Record<string, string | undefined>, options: { input?: string; cwd?: string } = {}): CliRun {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', input: options.input, cwd: options.cwd, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
