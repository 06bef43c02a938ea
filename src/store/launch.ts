// Resuming a branched session: the command a user types, and `--launch`, which runs Claude Code
// itself in the session's project folder (Claude Code finds `--resume <id>` only from there).

import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { claudeConfigDirs } from '../session/locate.js';
import { CmvError } from '../errors.js';
import { resumeCommand } from '../text/shell.js';

export { resumeCommand };

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The claude executable: the configured one (`cmv config set claude.binary`), else `claude` on
 * PATH, else Claude Code's own local install under a config dir.
 */
export function findClaude(env: NodeJS.ProcessEnv = process.env, configured = 'claude'): string | undefined {
  if (configured.includes('/')) return executable(configured) ? configured : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, configured);
    if (executable(candidate)) return candidate;
  }
  for (const configDir of claudeConfigDirs(env)) {
    const candidate = join(configDir, 'local', 'claude');
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

export interface LaunchCommand {
  command: string;
  args: string[];
  cwd: string;
}

export function launchCommand(cwd: string | undefined, sessionId: string, env: NodeJS.ProcessEnv = process.env, configured?: string): LaunchCommand {
  const command = findClaude(env, configured);
  if (!command) {
    throw new CmvError('NOT_FOUND', 'cannot find the claude command to launch', {
      hint: `install Claude Code or set \`cmv config set claude.binary /path/to/claude\`; or run it yourself: ${resumeCommand(cwd, sessionId)}`,
    });
  }
  if (!cwd || !existsSync(cwd)) {
    throw new CmvError('NOT_FOUND', `the session's project folder ${cwd ?? '(unknown)'} does not exist here`, {
      hint: 'Claude Code resumes a session only from its project folder: recreate it, or resume by hand',
    });
  }
  return { command, args: ['--resume', sessionId], cwd };
}

/** Runs Claude Code attached to this terminal and returns its exit code. */
export function launch(cmd: LaunchCommand): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, { cwd: cmd.cwd, stdio: 'inherit' });
    child.once('error', (error) => reject(new CmvError('IO', `cannot run ${cmd.command}: ${error.message}`, { cause: error })));
    child.once('close', (code) => resolve(code ?? 1));
  });
}
