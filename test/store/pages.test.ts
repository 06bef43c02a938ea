import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countLines, gitBlobId, pageIndexOf, pagePath, paginate, paginateAppended, paginateByLine, PAGE_RULE } from '../../src/store/pages.js';
import { SAMPLE_DIR, HAS_CORPUS, corpusFile } from '../helpers/corpus.js';
import { prefixCuts } from './helpers.js';

const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
/** A log of several pages: a large corpus log, else the sample sessions end to end, twice (about 1.4 MB). */
const large = HAS_CORPUS
  ? readFileSync(corpusFile('entire-ada8171575-v2.1.32-image-in-tool_result.jsonl'))
  : Buffer.concat([1, 2].flatMap(() => ['large-read-image', 'coding', 'compacted', 'resumed', 'subagent', 'short'].map((name) => readFileSync(join(SAMPLE_DIR, `${name}.jsonl`)))));

function reassemble(data: Buffer): Buffer {
  return Buffer.concat(paginate(data).map((p) => data.subarray(p.offset, p.offset + p.bytes)));
}

describe('paginate', () => {
  it('cuts a log into pages that re-assemble to the same bytes, at line ends only', () => {
    const pages = paginate(coding);
    expect(reassemble(coding).equals(coding)).toBe(true);
    for (const page of pages.slice(0, -1)) expect(coding[page.offset + page.bytes - 1]).toBe(0x0a);
    expect(pages.reduce((n, p) => n + countLines(coding.subarray(p.offset, p.offset + p.bytes)).lines, 0)).toBe(countLines(coding).lines);
  });

  it("gives a prefix of a log the same pages as the log, except the prefix's last page", () => {
    const big = HAS_CORPUS ? readFileSync(corpusFile('happy-400429ba-v1.0.51-3MB.jsonl')) : coding;
    const full = paginate(big);
    for (const cut of prefixCuts(big, 7)) {
      const prefix = paginate(big.subarray(0, cut));
      expect(prefix.slice(0, -1).map((p) => p.id)).toEqual(full.slice(0, prefix.length - 1).map((p) => p.id));
    }
  });

  it("keeps pages within the rule's bounds, except single lines larger than the maximum", () => {
    const pages = paginate(large);
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages.slice(0, -1)) {
      expect(page.bytes).toBeGreaterThanOrEqual(PAGE_RULE.minBytes);
      // Without its last line the page was still under the maximum (else it had been cut before).
      const body = large.subarray(page.offset, page.offset + page.bytes - 1);
      const lastLineStart = body.lastIndexOf(0x0a) + 1;
      expect(lastLineStart).toBeLessThan(PAGE_RULE.maxBytes);
    }
  });

  it('never ends a page after an unterminated last line, which may still grow', () => {
    const partial = Buffer.concat([coding, Buffer.from('{"type":"user","mess')]);
    const pages = paginate(partial);
    const last = pages[pages.length - 1];
    expect(last.offset + last.bytes).toBe(partial.length);
    const grown = paginate(Buffer.concat([partial, Buffer.from('age":{}}\n')]));
    expect(grown.slice(0, pages.length - 1).map((p) => p.id)).toEqual(pages.slice(0, -1).map((p) => p.id));
  });

  it('handles an empty log and a log without a final newline', () => {
    expect(paginate(Buffer.alloc(0))).toEqual([]);
    expect(countLines(Buffer.alloc(0))).toEqual({ lines: 0, terminated: true });
    expect(countLines(Buffer.from('a\nb'))).toEqual({ lines: 2, terminated: false });
  });

  it('can cut one page per line, the layout the benchmark compares with', () => {
    expect(paginateByLine(coding).length).toBe(countLines(coding).lines);
  });
});

describe('paginateAppended', () => {
  it('keeps the pages of the log it grew from and cuts only what was appended', () => {
    const cut = prefixCuts(coding, 2)[0];
    const before = paginate(coding.subarray(0, cut));
    const grown = paginateAppended(coding, before);
    const keptCount = before[before.length - 1].bytes < PAGE_RULE.minBytes ? before.length - 1 : before.length;
    expect(grown.slice(0, keptCount)).toEqual(before.slice(0, keptCount));
    expect(Buffer.concat(grown.map((p) => coding.subarray(p.offset, p.offset + p.bytes))).equals(coding)).toBe(true);
    for (const p of grown) expect(p.id).toBe(gitBlobId(coding.subarray(p.offset, p.offset + p.bytes)));
  });

  it('cuts a small last page again with what followed, so tiny snapshots leave no tiny pages', () => {
    const small = coding.subarray(0, coding.indexOf(10) + 1);
    const before = paginate(small);
    expect(before).toHaveLength(1);
    expect(before[0].bytes).toBeLessThan(PAGE_RULE.minBytes);
    expect(paginateAppended(coding, before)[0].bytes).toBeGreaterThanOrEqual(PAGE_RULE.minBytes);
  });
});

describe('gitBlobId', () => {
  it('is the id git gives the same bytes', () => {
    const page = coding.subarray(0, 5000);
    const git = spawnSync('git', ['hash-object', '--stdin'], { input: page, encoding: 'utf8' });
    expect(gitBlobId(page)).toBe(git.stdout.trim());
  });
});

describe('pagePath', () => {
  it('names pages so that path order is log order, and reads the index back', () => {
    const paths = [0, 1, 63, 64, 65, 1000, 99999].map(pagePath);
    expect([...paths].sort()).toEqual(paths);
    expect(paths.map(pageIndexOf)).toEqual([0, 1, 63, 64, 65, 1000, 99999]);
    expect(pageIndexOf('log/0000/000064')).toBeUndefined(); // page 64 belongs in group 0001
    expect(pageIndexOf('log/../x')).toBeUndefined();
    expect(pageIndexOf('meta.json')).toBeUndefined();
  });
});
