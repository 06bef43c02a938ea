// A file the user named with -o: checked before any work, so a wrong path fails at once and
// says why (cmv creates no folders for it, and never writes a file over a folder).

import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CmvError } from '../errors.js';

export function checkOutputFile(file: string, options: { force?: boolean; flag?: string } = {}): string {
  const flag = options.flag ?? '-o';
  const path = resolve(file);
  const info = statSync(path, { throwIfNoEntry: false });
  if (info?.isDirectory()) throw new CmvError('USAGE', `${flag} ${file} is a folder, not a file`, { hint: `name a file in it, e.g. ${flag} ${file.replace(/\/+$/, '')}/out.jsonl` });
  if (info && !options.force) throw new CmvError('CONFLICT', `${file} already exists`, { hint: `choose another ${flag} path, or add --force to overwrite it` });
  const parent = statSync(dirname(path), { throwIfNoEntry: false });
  if (!parent) throw new CmvError('NOT_FOUND', `the folder ${dirname(path)} does not exist`, { hint: `create it first (mkdir -p ${dirname(path)}), or choose another ${flag} path` });
  if (!parent.isDirectory()) throw new CmvError('USAGE', `${dirname(path)} is not a folder`, { hint: `choose another ${flag} path` });
  return path;
}
