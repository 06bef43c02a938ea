// cmv's version, read from package.json one folder up from both src/ and dist/: `cmv --version`,
// every snapshot's meta, and the trim's kept history chain (a chain kept by another version is read again).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function cmvVersion(): string {
  if (cached) return cached;
  try {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    cached = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    cached = 'unknown';
  }
  return cached;
}
