// The hooks the snapshot store calls: a stored graph reads back equal (and a broken one is
// refused), and a resume preamble in front of a session makes it resume from the resume block.

import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { sessionOfLines } from '../../src/trim/trim.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { graphJson, readGraphJson } from '../../src/graph/snapshot-graph.js';
import { SUMMARY_PREFIX } from '../../src/graph/summary-records.js';
import { CmvError } from '../../src/errors.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { withPreamble } from './preamble.js';

const RESUMED = join(SAMPLE_DIR, 'resumed.jsonl');

describe('stored graphs', () => {
  it('read back equal to what was stored', async () => {
    const graph = buildGraph(await openSession(RESUMED));
    expect(readGraphJson(graphJson(graph))).toEqual(graph);
  });

  it('refuse a file that is not a graph, with a hint', () => {
    expect(() => readGraphJson('{"nodes": [{"id": 1}]}')).toThrow(CmvError);
    expect(() => readGraphJson('not json')).toThrow(/is not JSON/);
  });
});

describe('resumePreamble', () => {
  it('makes a session resume from the resume block, every message after it', async () => {
    const { lines, summaryUuid, text } = await withPreamble(RESUMED);
    const branched = sessionOfLines('/tmp/branched.jsonl', lines);
    const sent = branched.conversation.sentMessages;
    expect(sent[0].uuid).toBe(summaryUuid);
    const texts = sentTexts(branched);
    expect(texts[0].text.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(texts[0].text).toContain(text);
    const original = sentTexts(await openSession(RESUMED)).map((t) => t.text);
    expect(texts.slice(1).map((t) => t.text)).toEqual(original);
  });
});
