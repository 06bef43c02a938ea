// A long log's snapshot reads its facts from factsModelOf (the records and API responses, no
// resume model): they must be the facts of the full session model, on every real log.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { factsModelOf, factsOf, sessionOfBuffer } from '../../src/store/session-facts.js';
import { allCorpusFiles, SAMPLE_DIR } from '../helpers/corpus.js';

const samples = readdirSync(SAMPLE_DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => join(SAMPLE_DIR, f));

describe('factsModelOf', () => {
  it.each([...samples, ...allCorpusFiles()])('gives the facts the session model gives: %s', (path) => {
    const data = readFileSync(path);
    expect(factsOf(factsModelOf(data))).toEqual(factsOf(sessionOfBuffer(path, data)));
    // And of a part cut at a line in the middle (a snapshot's new part).
    const cut = data.indexOf(0x0a, data.length >> 1) + 1;
    if (cut > 0) expect(factsOf(factsModelOf(data.subarray(cut)))).toEqual(factsOf(sessionOfBuffer(path, data.subarray(cut))));
  });
});
