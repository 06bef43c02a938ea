// `cmv ui` (and `cmv` alone on a terminal): the dashboard. Ink and React are loaded here, with a
// dynamic import, only when stdin and stdout are terminals that can draw it.

import { launch, launchCommand, resumeCommand } from '../../store/launch.js';
import { loadConfig } from '../../config/config-file.js';
import { CmvError } from '../../errors.js';
import { forTerminal, type Output } from '../output.js';

export interface UiOptions {
  launch?: boolean;
}

/** Why the dashboard cannot be drawn here, or undefined when it can. */
export function dashboardBlocker(stdin: { isTTY?: boolean } = process.stdin, stdout: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!stdin.isTTY || !stdout.isTTY) return 'the dashboard needs a terminal on stdin and stdout';
  if (env.TERM === 'dumb') return 'the dashboard cannot draw on TERM=dumb';
  return undefined;
}

export async function uiCommand(opts: UiOptions, out: Output): Promise<number | void> {
  const blocker = dashboardBlocker();
  if (blocker) throw new CmvError('USAGE', blocker, { hint: '`cmv sessions` and `cmv stats` print the same facts as text' });
  const config = (await loadConfig()).values;
  const { launchDashboard } = await import('../../tui/launch.js');
  const result = await launchDashboard({ config });
  for (const note of result.notes) out.info(`trimmed session: ${note}`);
  if (!result.resume) return;
  const { cwd, sessionId } = result.resume;
  if (opts.launch) return launch(launchCommand(cwd, sessionId, process.env, config['claude.binary']));
  process.stdout.write(`${forTerminal(resumeCommand(cwd, sessionId))}\n`);
}
