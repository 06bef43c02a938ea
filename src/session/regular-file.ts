// What cmv reads as a log or a bundle must be a regular file: a FIFO would hang the read (and a
// store lock with it), /dev/zero would fill memory, a socket or device is no log at all. Checked
// before the file is opened, and again on the opened handle.

import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { CmvError, fromSystemError } from '../errors.js';

function kindOf(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The refusal for a path that is not a regular file, or undefined when it is one. */
export function notRegularFile(info: Stats, path: string, what = 'a session log'): CmvError | undefined {
  const kind = kindOf(info);
  if (!kind) return undefined;
  if (info.isDirectory() && what === 'a session log') return fromSystemError(Object.assign(new Error('is a directory'), { code: 'EISDIR' }), path);
  return new CmvError('BAD_INPUT', `${path} is ${kind}, not ${what}`, { hint: 'pass a regular file; cmv does not read pipes, devices or sockets' });
}

/** Stats `path` and refuses anything but a regular file (following symlinks). */
export async function requireRegularFile(path: string, what?: string): Promise<Stats> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    throw fromSystemError(error, path);
  }
  const refused = notRegularFile(info, path, what);
  if (refused) throw refused;
  return info;
}
