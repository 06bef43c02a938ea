// The PreCompact hook's first snapshot of a long log reads the log's history once for two
// readers: its facts, and the chain a trim that copies the history as it is reads (historyLine).
// What it hands the trim must be exactly what the trim would have read, line for line, and the
// facts exactly what they were without it: checked on every line of the samples, the trim cases
// and both corpora (those skip cleanly without ../shared).

import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitRawLines } from '../../src/session/line-reader.js';
import { chainOnlyOf, skimEntry } from '../../src/session/skim.js';
import { historyLine } from '../../src/trim/history-chain.js';
import { factsOfParts } from '../../src/store/session-facts.js';
import type { SessionLine } from '../../src/session/conversation.js';
import { allCorpusFiles, sampleFiles, SHARED_DIR, hasShared } from '../helpers/corpus.js';
import { SessionBuilder, CWD, readOutput, commandOutput } from '../trim/session-builder.js';

const TRIM_CASES = join(SHARED_DIR, 'bench', 'trim-cases');
const trimCases = hasShared(TRIM_CASES)
  ? ['A-chain-break-progress-root', 'B-missing-parent-relink', 'C-leaf-before-last-boundary', 'C2-leaf-tie-before-last-boundary'].map((n) => join(TRIM_CASES, `${n}.jsonl`))
  : [];
const logs = [...sampleFiles(), ...trimCases, ...allCorpusFiles()];

/** Where the last line holding a compaction boundary starts (0: none). */
function lastBoundary(data: Buffer): number {
  let at = 0;
  for (const raw of splitRawLines(data)) if (raw.bytes.includes('"compact_boundary"') && skimEntry(raw.bytes, 0)?.subtype === 'compact_boundary') at = raw.offset;
  return at;
}

/** factsOfParts asked for the chain of the lines before `bytes`: the facts, and the lines it handed. */
function withChain(data: Buffer, parts: [number, number][], bytes: number): { facts: ReturnType<typeof factsOfParts>; lines: SessionLine[] | undefined; calls: number } {
  let lines: SessionLine[] | undefined;
  let calls = 0;
  const facts = factsOfParts(data, parts, {
    bytes,
    give: (given) => {
      calls++;
      lines = given;
    },
  });
  return { facts, lines, calls };
}

describe('a line read whole serves the chain a trim reads', () => {
  it.each(logs.map((f) => [basename(f), f]))('%s: every line read whole, made chain-only, is the line read for its chain', (_name, file) => {
    const data = readFileSync(file);
    let whole = 0;
    for (const raw of splitRawLines(data)) {
      const entry = skimEntry(raw.bytes, raw.index);
      if (!entry) continue;
      whole++;
      const chain = skimEntry(raw.bytes, raw.index, true);
      expect(chainOnlyOf(entry, raw.index)).toEqual(chain);
      // Unmeasured (as the facts read it): the same line, blocks without sizes.
      const unmeasured = skimEntry(raw.bytes, raw.index, false, false)!;
      expect(chainOnlyOf(unmeasured, raw.index)).toEqual(chain);
      expect(unmeasured.blocks.map((b) => [b.type, b.name, b.toolId, b.blank])).toEqual(entry.blocks.map((b) => [b.type, b.name, b.toolId, b.blank]));
    }
    expect(whole).toBeGreaterThan(0);
  });

  it.each(logs.map((f) => [basename(f), f]))('%s: the facts with the history handed are the facts without, and the history is the lines as the trim reads them', (_name, file) => {
    const data = readFileSync(file);
    const boundary = lastBoundary(data);
    // The history, then what follows it, as a first snapshot models a log (a cut inside the
    // history too, as a page boundary may fall before the compaction's line).
    const cut = data.lastIndexOf(0x0a, Math.max(0, Math.floor(boundary / 2))) + 1;
    const parts: [number, number][] =
      boundary > 0
        ? [
            [0, cut],
            [cut, data.length],
          ]
        : [[0, data.length]];
    const bytes = boundary > 0 ? boundary : data.length;
    const { facts, lines, calls } = withChain(data, parts, bytes);
    expect(calls).toBe(1);
    expect(facts).toEqual(factsOfParts(data, parts));
    const expected = splitRawLines(data)
      .filter((raw) => raw.offset < bytes)
      .map((raw) => historyLine(raw));
    // A log whose last line has no newline: no line ends where the history would.
    if (boundary === 0 && !data.subarray(-1).equals(Buffer.from('\n'))) expect(lines).toBeUndefined();
    else expect(lines).toEqual(expected);
  });
});

describe('the history handed from the facts', () => {
  function log(): Buffer {
    const b = new SessionBuilder();
    for (let n = 0; n < 3; n++) {
      b.user(`Part ${n}: read the file and run the tests.`);
      b.toolCall('Read', { file_path: `${CWD}/src/part${n}.ts` }, readOutput(40));
      b.toolCall('Bash', { command: 'npm test' }, commandOutput(30));
      b.assistant([{ type: 'text', text: `Part ${n} read; tests pass.` }]);
      if (n < 2) b.compact(`1. Parts up to ${n} read.`);
    }
    return Buffer.from(b.text());
  }

  it('is refused where no line ends at the history’s end, or the parts do not start at the log’s start', () => {
    const data = log();
    const boundary = lastBoundary(data);
    expect(boundary).toBeGreaterThan(0);
    expect(withChain(data, [[0, data.length]], boundary + 5).lines).toBeUndefined();
    const second = data.indexOf(0x0a) + 1;
    expect(withChain(data, [[second, data.length]], boundary).lines).toBeUndefined();
    expect(withChain(data, [[0, data.length]], boundary).lines?.length).toBe(splitRawLines(data.subarray(0, boundary)).length);
  });

  it('reads a line the whole read refuses (an escaped key) as the trim reads it', () => {
    const data = log();
    const boundary = lastBoundary(data);
    const lines = data.subarray(0, boundary).toString('utf8').split('\n');
    lines[1] = lines[1].replace('"type":', '"ty\\u0070e":');
    const odd = Buffer.from(lines.join('\n') + data.subarray(boundary).toString('utf8'));
    expect(skimEntry(Buffer.from(lines[1]), 1)).toBeUndefined();
    const handed = withChain(odd, [[0, odd.length]], lastBoundary(odd)).lines!;
    expect(handed[1]).toEqual(historyLine(splitRawLines(odd)[1]));
    expect(handed[1].entries[0].type).toBe(JSON.parse(lines[1]).type);
  });
});
