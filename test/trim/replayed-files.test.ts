// The replayed project files the e2e and the bench trim against: each file as the log's own
// Edit/MultiEdit/Write records leave it.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayedDisk, replayedFiles } from '../helpers/replayed-files.js';
import { HAS_CORPUS, corpusFile } from '../helpers/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'cmv-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function logOf(sidecars: unknown[]): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, sidecars.map((toolUseResult, i) => JSON.stringify({ type: 'user', uuid: `u${i}`, toolUseResult })).join('\n') + '\nnot json\n');
  return path;
}

describe('replayedFiles', () => {
  it('applies edits to the file they record, in file order, after a Write', () => {
    const log = logOf([
      { type: 'create', filePath: '/p/a.ts', content: 'one\ntwo\nthree\n', structuredPatch: [] },
      { filePath: '/p/a.ts', oldString: 'two', newString: 'TWO', originalFile: 'one\ntwo\nthree\n', replaceAll: false, structuredPatch: [], userModified: false },
      { filePath: '/p/b.ts', oldString: 'x', newString: 'y', originalFile: 'x x x', replaceAll: true, structuredPatch: [], userModified: false },
      {
        filePath: '/p/c.ts',
        originalFileContents: 'a b c',
        edits: [
          { old_string: 'a', new_string: 'A' },
          { old_string: 'c', new_string: 'C' },
        ],
        structuredPatch: [],
        userModified: false,
      },
      'Error: String to replace not found in file.',
      // A formatter rewrote d.ts; the whole-file Read after it saw what the disk holds.
      { filePath: '/p/d.ts', oldString: 'x', newString: 'y  ', originalFile: 'x', replaceAll: false, structuredPatch: [], userModified: false },
      { type: 'text', file: { filePath: '/p/d.ts', content: 'y', numLines: 1, startLine: 1, totalLines: 1 } },
      // A partial Read says nothing about the rest of the file.
      { type: 'text', file: { filePath: '/p/a.ts', content: 'one', numLines: 1, startLine: 1, totalLines: 3 } },
    ]);
    const files = replayedFiles(log);
    expect(Object.fromEntries(files)).toEqual({ '/p/a.ts': 'one\nTWO\nthree\n', '/p/b.ts': 'y y y', '/p/c.ts': 'A b C', '/p/d.ts': 'y' });
    const { holds: fileHolds } = replayedDisk(log);
    expect(fileHolds('/p/a.ts', 'TWO\nthree')).toBe(true);
    expect(fileHolds('/p/a.ts', 'two')).toBe(false);
    expect(fileHolds('/p/missing.ts', '')).toBe(false);
  });

  it.skipIf(!HAS_CORPUS)('rebuilds, from a real log, files that hold the new text of the last edit of each', () => {
    const log = corpusFile('entire-b02936744f-v2.1.5-apierrors-2compacts-3MB.jsonl');
    const lastEdit = new Map<string, string>();
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      if (!line.includes('"originalFile"')) continue;
      const sidecar = JSON.parse(line).toolUseResult;
      if (typeof sidecar?.newString === 'string') lastEdit.set(sidecar.filePath, sidecar.newString);
    }
    const files = replayedFiles(log);
    expect(lastEdit.size).toBeGreaterThan(2);
    for (const [path, text] of lastEdit) expect(files.get(path), path).toContain(text);
  });
});
