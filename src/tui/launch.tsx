// Starts the dashboard on the terminal: the alternate screen (the shell's scrollback is left
// alone), Ink rendering into a FrameWriter (only changed rows are redrawn), and back to the shell
// on exit. Loaded with a dynamic import() by `cmv ui` only when stdin and stdout are terminals.

import { render } from 'ink';
import { App, type DashboardExit } from './app.js';
import { defaultSources, type DashboardSources } from './sources.js';
import { FrameWriter } from './frame-writer.js';
import type { CmvConfig } from '../config/config-keys.js';

// Alternate screen, cursor hidden, and no autowrap: a row wider than the terminal (a frame laid
// out for the size before a resize) is cut at the margin instead of wrapping and scrolling.
const ENTER_SCREEN = '\u001b[?1049h\u001b[?25l\u001b[?7l\u001b[2J';
const LEAVE_SCREEN = '\u001b[?7h\u001b[?25h\u001b[?1049l';

export interface LaunchOptions {
  config: CmvConfig;
  sources?: DashboardSources;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
}

export async function launchDashboard(options: LaunchOptions): Promise<DashboardExit> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  let result: DashboardExit = { notes: [] };
  const frames = new FrameWriter(stdout);
  stdout.write(ENTER_SCREEN);
  const leave = () => stdout.write(LEAVE_SCREEN);
  process.once('exit', leave);
  try {
    // debug: Ink hands each whole frame to the FrameWriter instead of moving the cursor itself.
    const instance = render(<App sources={options.sources ?? defaultSources(options.config)} pollMs={Math.round(options.config['ui.pollSeconds'] * 1000)} onExit={(r) => (result = r)} />, {
      stdout: frames as unknown as NodeJS.WriteStream,
      stdin,
      debug: true,
      exitOnCtrlC: true,
      patchConsole: false,
    });
    await instance.waitUntilExit();
    instance.cleanup();
  } finally {
    frames.close();
    process.off('exit', leave);
    leave();
  }
  return result;
}
