// The one question the trim asks the disk: does the file a tool wrote still hold what it wrote?
// Only then may a large Write/Edit input be stubbed. Files are read once per trim, and only small ones.

import { readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';

const MAX_FILE_BYTES = 8 * 1024 * 1024;

export function diskChecker(): (path: string, text: string) => boolean {
  const cache = new Map<string, string | null>();
  return (path, text) => {
    if (!isAbsolute(path)) return false;
    let content = cache.get(path);
    if (content === undefined) {
      try {
        content = statSync(path).size <= MAX_FILE_BYTES ? readFileSync(path, 'utf8') : null;
      } catch {
        content = null;
      }
      cache.set(path, content);
    }
    return content !== null && content.includes(text);
  };
}
