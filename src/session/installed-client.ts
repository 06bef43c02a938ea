// Which Claude Code will resume a session on this machine: `claude --version` of the client on
// PATH. An edge of the house (it runs a process); the models it selects are in clients.ts.

import { execFile } from 'node:child_process';

/** The version `claude --version` prints ("2.1.332 (Claude Code)"), or undefined when none answers. */
export function installedClientVersion(command = 'claude', timeoutMs = 5000): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      execFile(command, ['--version'], { timeout: timeoutMs, env: { ...process.env, DISABLE_AUTOUPDATER: '1' } }, (error, stdout) => {
        if (error) return resolve(undefined);
        resolve(parseClientVersion(String(stdout)));
      });
    } catch {
      resolve(undefined);
    }
  });
}

export function parseClientVersion(text: string): string | undefined {
  return /\b(\d+\.\d+\.\d+)\b/.exec(text)?.[1];
}
