// Every file a real session read or changed (Read, Edit, Write, MultiEdit, NotebookEdit, and the
// paths Glob and Grep searched) is a FILE node of its graph, its path exact (relative to the
// session's cwd when inside it). The expected paths are read here straight from the raw lines.

import { readFileSync } from 'node:fs';
import { basename, isAbsolute, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/session.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { HAS_CORPUS, corpusFiles, sampleFiles } from '../helpers/corpus.js';

const PATH_TOOLS: Record<string, string[]> = {
  Read: ['file_path'],
  Edit: ['file_path'],
  Write: ['file_path'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path'],
  NotebookRead: ['notebook_path'],
  Glob: ['path'],
  Grep: ['path'],
  LS: ['path'],
};

function label(path: string, cwd: string | undefined): string {
  const p = path.trim();
  if (!cwd || !isAbsolute(p)) return p.replace(/^\.\//, '');
  const rel = relative(cwd, p);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? p : rel;
}

/** Paths named by file tools in the main conversation of a log (every assistant line, all branches). */
function touchedPaths(file: string): Set<string> {
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    })
    .filter((r) => r && typeof r === 'object' && (r.type === 'user' || r.type === 'assistant'));
  const subagentTranscript = records.every((r) => r.isSidechain === true);
  const paths = new Set<string>();
  for (const record of records) {
    if (record.type !== 'assistant' || (record.isSidechain && !subagentTranscript) || !Array.isArray(record.message?.content)) continue;
    for (const block of record.message.content) {
      if (block?.type !== 'tool_use' || !PATH_TOOLS[block.name]) continue;
      for (const key of PATH_TOOLS[block.name]) {
        const value = block.input?.[key];
        if (typeof value === 'string' && value.trim() !== '') paths.add(label(value, record.cwd));
      }
      const pattern = block.input?.pattern;
      if (block.name === 'Glob' && typeof pattern === 'string' && !/[*?[\]{}]/.test(pattern)) paths.add(label(pattern, record.cwd));
    }
  }
  return paths;
}

async function expectEveryFile(file: string): Promise<number> {
  const expected = touchedPaths(file);
  const graph = buildGraph(await openSession(file));
  const files = new Set(graph.nodes.filter((n) => n.type === 'FILE').map((n) => n.label));
  const missing = [...expected].filter((p) => !files.has(p));
  expect(missing, `${basename(file)}: files read or changed but not in the graph`).toEqual([]);
  return expected.size;
}

describe('every file a session read or changed is in its graph', () => {
  it.each(sampleFiles().map((f) => [basename(f), f]))('%s', async (_, file) => {
    expect(await expectEveryFile(file)).toBeGreaterThan(0);
  });

  describe.skipIf(!HAS_CORPUS)('corpus', () => {
    it.each(corpusFiles().map((f) => [basename(f), f]))('%s', async (_, file) => {
      await expectEveryFile(file);
    });

    it('the corpus names well over a hundred files, and all of them are found', async () => {
      let total = 0;
      for (const file of corpusFiles()) total += await expectEveryFile(file);
      expect(total).toBeGreaterThan(150);
    });
  });
});

describe('files in the graph carry what happened to them', () => {
  it('marks changed files modified, created ones created, and read-only ones without a status', async () => {
    const graph = buildGraph(await openSession(sampleFiles().find((f) => f.endsWith('coding.jsonl'))!));
    const byLabel = new Map(graph.nodes.filter((n) => n.type === 'FILE').map((n) => [n.label, n]));
    expect(byLabel.get('tally/report.py')?.status).toBe('modified');
    expect(byLabel.get('tests/test_money.py')).toMatchObject({ status: 'modified', detail: 'created' });
    // Read and searched, never changed.
    expect(byLabel.get('tally/__init__.py')?.status ?? null).toBeNull();
  });
});
