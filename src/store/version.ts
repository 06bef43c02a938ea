// The cmv version recorded in every snapshot's meta (read from package.json, two folders up from
// both src/store and dist/store).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function cmvVersion(): string {
  if (cached) return cached;
  try {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
    cached = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    cached = 'unknown';
  }
  return cached;
}
