// Reading single lines of a log again by their offset, for the few records a pass over the
// whole file did not keep (memory holds the index, never the file).

import { closeSync, openSync, readSync } from 'node:fs';
import type { SessionLine } from './conversation.js';
import { parseRecords } from './entry.js';
import { withoutTopLevelField } from './skim.js';
import type { JsonObject } from './payload.js';
import { fromSystemError } from '../errors.js';

export interface LineReader {
  /** The record at `record` of a line, its never-sent toolUseResult sidecar cut before parsing. */
  record(line: SessionLine, record: number): JsonObject;
  close(): void;
}

export function lineReader(path: string): LineReader {
  let fd: number | undefined;
  let buffer = Buffer.alloc(64 * 1024);
  return {
    record: (line, record) => {
      try {
        fd ??= openSync(path, 'r');
        if (line.length > buffer.length) buffer = Buffer.alloc(line.length);
        const bytes = buffer.subarray(0, readSync(fd, buffer, 0, line.length, line.offset));
        const slim = record === 0 ? (withoutTopLevelField(bytes, 'toolUseResult') ?? bytes) : bytes;
        const value = parseRecords(slim)[record];
        return value && typeof value === 'object' ? (value as JsonObject) : {};
      } catch (error) {
        throw fromSystemError(error, path);
      }
    },
    close: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
