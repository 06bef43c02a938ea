// Which logs a batch analysis reads: paths, folders (every .jsonl below them) and globs, or with
// none every Claude config dir's projects. Main sessions and subagent transcripts are told apart
// by their place (`agent-*.jsonl`, `<session>/subagents/`); the log itself confirms it later.

import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fg from 'fast-glob';
import { claudeConfigDirs } from '../session/locate.js';
import { subagentByPath } from './subagent-path.js';

export interface BatchFile {
  path: string;
  bytes: number;
  kind: 'main' | 'subagent';
}

export interface BatchFiles {
  files: BatchFile[];
  /** Arguments that name nothing readable: reported, never fatal. */
  missing: { path: string; error: string }[];
}

export const GLOB_CHARS = /[*?[\]{}!]/;

export { subagentByPath };

async function globLogs(pattern: string, cwd?: string): Promise<string[]> {
  return fg(pattern, { cwd, absolute: true, onlyFiles: true, suppressErrors: true, followSymbolicLinks: false });
}

export async function findBatchFiles(args: string[], configDirs: string[] = claudeConfigDirs()): Promise<BatchFiles> {
  const found = new Set<string>();
  const missing: BatchFiles['missing'] = [];
  if (args.length === 0) {
    for (const dir of configDirs) for (const path of await globLogs('**/*.jsonl', join(dir, 'projects'))) found.add(path);
  }
  for (const arg of args) {
    let info;
    try {
      info = statSync(arg);
    } catch {
      info = undefined;
    }
    if (info?.isDirectory()) {
      for (const path of await globLogs('**/*.jsonl', resolve(arg))) found.add(path);
    } else if (info?.isFile()) {
      found.add(resolve(arg));
    } else if (GLOB_CHARS.test(arg)) {
      const matches = await globLogs(arg);
      if (matches.length === 0) missing.push({ path: arg, error: 'the pattern matches no file' });
      for (const path of matches) found.add(path);
    } else {
      missing.push({ path: arg, error: 'no such file or folder' });
    }
  }
  const files: BatchFile[] = [];
  for (const path of [...found].sort()) {
    try {
      files.push({ path, bytes: statSync(path).size, kind: subagentByPath(path) ? 'subagent' : 'main' });
    } catch (error) {
      missing.push({ path, error: (error as Error).message });
    }
  }
  return { files, missing };
}
