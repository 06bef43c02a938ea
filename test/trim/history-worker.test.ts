// A long history's chain read in a worker thread (the built cmv: the TypeScript sources have no
// compiled worker) while pass 1 reads what follows: the same trim, chain and counts as reading it
// in one pass, a line that is not a record in the history included.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { BUILD, buildIfStale } from '../helpers/built-cli.js';
import { SessionBuilder, readOutput, removeWrittenSessions, CWD } from './session-builder.js';

afterAll(removeWrittenSessions);
beforeAll(async () => {
  await buildIfStale();
}, 300_000);

const AS_IS = { keepHistory: true, historyAsIs: true } as const;
const joined = (lines: Buffer[]) => Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));

describe('the history chain read in a worker thread', () => {
  it('gives the trim, chain and counts of reading the history in pass 1', async () => {
    const built = (await import(pathToFileURL(join(BUILD, 'dist', 'trim', 'trim.js')).href)) as typeof import('../../src/trim/trim.js');
    const b = new SessionBuilder();
    for (let i = 0; i < 3; i++) {
      b.user(`Read part ${i}.`);
      b.toolCall('Read', { file_path: `${CWD}/src/part${i}.ts` }, readOutput(80));
      b.assistant([{ type: 'text', text: `Part ${i} is read.` }]);
      if (i < 2) b.compact(`1. Parts up to ${i} read.`);
    }
    const path = b.write();
    // A line that is not a record, in the history.
    const lines = b.text().split('\n');
    lines.splice(2, 0, '{"type":"user", cut short');
    writeFileSync(path, lines.join('\n'));

    const here = await trimSession(path, AS_IS, { history: {} });
    const there = await built.trimSession(path, AS_IS, { history: { workerBytes: 0 } });
    expect(here.historyInWorker).toBeUndefined();
    expect(there.historyInWorker).toBe(true);
    expect(there.verify.ok).toBe(true);
    expect(there.verify).toEqual(here.verify);
    expect(joined(there.lines).equals(joined(here.lines))).toBe(true);
    expect(there.malformedLinesKept).toEqual([3]);
    expect(there.malformedLinesKept).toEqual(here.malformedLinesKept);
    expect(there.input).toEqual(here.input);
    expect(there.removed).toEqual(here.removed);
    expect(JSON.parse(JSON.stringify(there.historyChain))).toEqual(JSON.parse(JSON.stringify(here.historyChain)));
    expect(there.historyChain!.lines.length).toBeGreaterThan(3);
  });
});
