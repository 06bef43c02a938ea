// The one question the trim asks the disk: does the file a tool wrote still hold what it wrote?
// Only then may a large Write/Edit input be stubbed. Files are read once per trim, and only small ones.

import { readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';

const MAX_FILE_BYTES = 8 * 1024 * 1024;

export interface DiskChecker {
  /** True when the file at `path` holds `text`. */
  holds: (path: string, text: string) => boolean;
  /** The file's lines, to rule out cheaply the texts it cannot hold (undefined: no such file). */
  lines: (path: string) => ReadonlySet<string> | undefined;
}

/** Lines of a text, as a set: a text whose whole lines are not all among them is not in the text. */
export function lineSetOf(content: string): ReadonlySet<string> {
  return new Set(content.split('\n'));
}

/** A checker over file contents from `read` (null: no such file), each file's line set made once. */
export function fileChecker(read: (path: string) => string | null): DiskChecker {
  const lineSets = new Map<string, ReadonlySet<string> | undefined>();
  return {
    holds: (path, text) => read(path)?.includes(text) ?? false,
    lines: (path) => {
      if (!lineSets.has(path)) {
        const content = read(path);
        lineSets.set(path, content === null ? undefined : lineSetOf(content));
      }
      return lineSets.get(path);
    },
  };
}

/** Where the session's project is now: paths under `from` (the cwd the log records) are read under `to`. */
export interface ProjectMove {
  from: string;
  to: string;
}

/** A moved project (`--project-dir DIR`): the log's own cwd, read from its first lines, now lives at `dir`. */
export async function projectMove(logPath: string, dir: string): Promise<ProjectMove | undefined> {
  const handle = await open(logPath, 'r');
  try {
    const head = Buffer.alloc(256 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const match = /"cwd":("(?:[^"\\]|\\.)*")/.exec(head.subarray(0, bytesRead).toString('utf8'));
    const from = match ? (JSON.parse(match[1]) as string) : undefined;
    return from && isAbsolute(from) ? { from: from.replace(/\/+$/, ''), to: resolve(dir) } : undefined;
  } finally {
    await handle.close();
  }
}

/** A path of the log as it is found now, when its project moved. */
export function movedPath(path: string, move: ProjectMove | undefined): string {
  if (!move) return path;
  if (path === move.from) return move.to;
  return path.startsWith(`${move.from}/`) ? join(move.to, path.slice(move.from.length + 1)) : path;
}

/** The checker over the files on this disk: absolute paths only, each small file read once. */
export function diskChecker(move?: ProjectMove): DiskChecker {
  const cache = new Map<string, string | null>();
  return fileChecker((logged) => {
    const path = movedPath(logged, move);
    if (!isAbsolute(path)) return null;
    let content = cache.get(path);
    if (content === undefined) {
      try {
        content = statSync(path).size <= MAX_FILE_BYTES ? readFileSync(path, 'utf8') : null;
      } catch {
        content = null;
      }
      cache.set(path, content);
    }
    return content;
  });
}
