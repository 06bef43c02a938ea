// The project files as a session left them, rebuilt from the log itself: the trim stubs a large
// Edit/Write input only when the file on disk holds it, and a corpus log's project is not on this
// machine. Claude Code records the whole file before each edit (`toolUseResult.originalFile`, or
// `originalFileContents` for MultiEdit), the content of each Write, and the file a whole-file Read
// saw, so replaying those sidecars in file order gives each file's text at the end of the session,
// as the user's disk would hold it had nothing touched the files since. Changes made by shell
// commands (a formatter, a checkout) are seen only when the session read the whole file after them.

import { readFileSync } from 'node:fs';
import { fileChecker, type DiskChecker } from '../../src/trim/disk.js';

type Json = Record<string, unknown>;

function replaceText(text: string, before: string, after: string, all: boolean): string {
  if (before === '') return text === '' ? after : text;
  return all ? text.split(before).join(after) : text.replace(before, () => after);
}

function sidecarOf(line: string): Json | undefined {
  if (!line.includes('"toolUseResult"')) return undefined;
  try {
    const record = JSON.parse(line) as Json;
    const sidecar = record.toolUseResult;
    return sidecar && typeof sidecar === 'object' && !Array.isArray(sidecar) ? (sidecar as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** A Read that saw the whole file (numbered from line 1 to its last line). */
function wholeFile(read: Json): boolean {
  return (read.startLine === 1 || read.startLine === undefined) && typeof read.numLines === 'number' && read.numLines === read.totalLines;
}

/** Each file's text after every recorded Edit, MultiEdit and Write of the log, by absolute path. */
export function replayedFiles(logPath: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const line of readFileSync(logPath, 'utf8').split('\n')) {
    const sidecar = sidecarOf(line);
    const read = sidecar?.type === 'text' && sidecar.file && typeof sidecar.file === 'object' ? (sidecar.file as Json) : undefined;
    if (read && typeof read.filePath === 'string' && typeof read.content === 'string' && wholeFile(read)) {
      files.set(read.filePath, read.content);
      continue;
    }
    const path = sidecar?.filePath;
    if (!sidecar || typeof path !== 'string') continue;
    if (typeof sidecar.oldString === 'string' && typeof sidecar.newString === 'string') {
      const base = typeof sidecar.originalFile === 'string' ? sidecar.originalFile : (files.get(path) ?? '');
      files.set(path, replaceText(base, sidecar.oldString, sidecar.newString, sidecar.replaceAll === true));
    } else if (Array.isArray(sidecar.edits)) {
      let text = typeof sidecar.originalFileContents === 'string' ? sidecar.originalFileContents : (files.get(path) ?? '');
      for (const edit of sidecar.edits as Json[]) {
        if (typeof edit?.old_string === 'string' && typeof edit.new_string === 'string') text = replaceText(text, edit.old_string, edit.new_string, edit.replace_all === true);
      }
      files.set(path, text);
    } else if ((sidecar.type === 'create' || sidecar.type === 'update') && typeof sidecar.content === 'string') {
      files.set(path, sidecar.content);
    }
  }
  return files;
}

/** The trim's disk checker answering from the replayed files instead of the disk. */
export function replayedDisk(logPath: string): DiskChecker {
  const files = replayedFiles(logPath);
  return fileChecker((path) => files.get(path) ?? null);
}
