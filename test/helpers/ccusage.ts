// ccusage (npm, devDependency) as a user runs it. ccusage 20 is a launcher for a native build per
// platform; the registry this project installs from serves the linux-x64 build only, so elsewhere the
// tests that compare with ccusage skip (and say so). On linux-x64 they run, and a missing or broken
// ccusage fails them.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const CCUSAGE = join(__dirname, '..', '..', 'node_modules', 'ccusage', 'src', 'cli.js');

/** Whether this platform has the ccusage build the lockfile holds (linux-x64). */
export const CCUSAGE_PLATFORM = process.platform === 'linux' && process.arch === 'x64';

/** ccusage over the Claude config folder `configDir`: `ccusage session --json --offline`. */
export function runCcusage(configDir: string): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, [CCUSAGE, 'session', '--json', '--offline'], { env: { ...process.env, CLAUDE_CONFIG_DIR: configDir }, encoding: 'utf8', maxBuffer: 64 << 20 });
}
