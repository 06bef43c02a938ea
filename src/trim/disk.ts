// The one question the trim asks the disk: does the file a tool wrote still hold what it wrote?
// Only then may a large Write/Edit input be stubbed. Files are read once per trim, and only small ones.

import { readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';

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

/** The checker over the files on this disk: absolute paths only, each small file read once. */
export function diskChecker(): DiskChecker {
  const cache = new Map<string, string | null>();
  return fileChecker((path) => {
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
