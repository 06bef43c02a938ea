// The files Claude Code keeps beside a session log, under `<sessionId>/`: subagent transcripts
// (2.1.x) and persisted tool outputs. A copy cmv makes of a session carries them.

import { cp, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What Claude Code keeps beside a log, under `<sessionId>/`: subagent transcripts and persisted
 * tool outputs (2.1.x). A new session the trim writes gets copies under its own id, so a resumed
 * copy (and a later trim or branch of it) finds them as the original does; the original's are untouched.
 */
export async function copySideFiles(logPath: string, targetDir: string): Promise<string[]> {
  const source = logPath.replace(/\.jsonl$/, '');
  const copied: string[] = [];
  for (const sub of SIDE_FOLDERS) {
    const from = join(source, sub);
    try {
      if (!(await stat(from)).isDirectory()) continue;
    } catch {
      continue;
    }
    await cp(from, join(targetDir, sub), { recursive: true, errorOnExist: false, force: false });
    copied.push(sub);
  }
  return copied;
}

const SIDE_FOLDERS = ['subagents', 'tool-results'];
