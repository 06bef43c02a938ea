// How a session log is laid out in the store: cut at line boundaries into pages whose ends are
// chosen by the lines' own content, so a log that grows by appends keeps every earlier page.

import { createHash } from 'node:crypto';

export interface Page {
  /** Byte offset of the page in the log. */
  offset: number;
  bytes: number;
  lines: number;
  /** The git blob id of the page's bytes. */
  id: string;
}

export interface PageRule {
  /** No cut before a page holds this many bytes. */
  minBytes: number;
  /** Past minBytes, each further byte ends the page with probability 1/spreadBytes. */
  spreadBytes: number;
  /** A page is cut after the line that takes it to this size, whatever the line. */
  maxBytes: number;
}

/**
 * Pages of about 50 KB: small enough that the partial last page a growing log rewrites on each
 * snapshot costs little, large enough that each compresses nearly as well as the whole log.
 * bench/store.js measures the alternatives (smaller and larger pages, one blob per line).
 */
export const PAGE_RULE: PageRule = { minBytes: 16 * 1024, spreadBytes: 32 * 1024, maxBytes: 256 * 1024 };

/** Page layout version, recorded in every snapshot's meta. */
export const PAGE_FORMAT = 1;

/** Pages per folder of the log tree, so an append rewrites one small tree, not a long one. */
export const PAGES_PER_GROUP = 64;

const NEWLINE = 0x0a;
const TAIL_BYTES = 64;

/** FNV-1a of a line's last bytes (uuids and timestamps live there), mixed with its length. */
function lineHash(data: Buffer, start: number, end: number): number {
  let hash = 0x811c9dc5 ^ (end - start);
  for (let i = Math.max(start, end - TAIL_BYTES); i < end; i++) {
    hash ^= data[i];
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return hash >>> 0;
}

/** The git id of a blob holding `data` (sha1 of "blob <size>\0" + data). */
export function gitBlobId(data: Buffer): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

/**
 * Cuts a log into pages. The decision to end a page after a line depends only on that line and
 * the bytes since the last cut, so the pages of a prefix are the pages of the grown log; an
 * unterminated last line (a write in progress) never ends a page.
 */
export function paginate(data: Buffer, rule: PageRule = PAGE_RULE): Page[] {
  const pages: Page[] = [];
  let start = 0;
  let lines = 0;
  let pos = 0;
  const cut = (end: number) => {
    const bytes = data.subarray(start, end);
    pages.push({ offset: start, bytes: end - start, lines, id: gitBlobId(bytes) });
    start = end;
    lines = 0;
  };
  while (pos < data.length) {
    const nl = data.indexOf(NEWLINE, pos);
    const end = nl < 0 ? data.length : nl + 1;
    lines++;
    const size = end - start;
    if (nl >= 0 && size >= rule.minBytes) {
      const chance = (end - pos) / rule.spreadBytes;
      if (size >= rule.maxBytes || lineHash(data, pos, nl) < chance * 0x1_0000_0000) cut(end);
    }
    pos = end;
  }
  if (start < data.length) cut(data.length);
  return pages;
}

/** Every line a separate page: the "one blob per message" layout, for the benchmark's comparison. */
export function paginateByLine(data: Buffer): Page[] {
  return paginate(data, { minBytes: 0, spreadBytes: 1, maxBytes: 0 });
}

/** Tree path of page `index`: log/<group>/<index>, zero-padded so name order is log order. */
export function pagePath(index: number): string {
  return `log/${String(Math.floor(index / PAGES_PER_GROUP)).padStart(4, '0')}/${String(index).padStart(6, '0')}`;
}

const PAGE_PATH = /^log\/(\d{4})\/(\d{6})$/;

/** The page index of a tree path, or undefined when the path is not a page of the layout. */
export function pageIndexOf(path: string): number | undefined {
  const match = PAGE_PATH.exec(path);
  if (!match) return undefined;
  const index = Number(match[2]);
  return Number(match[1]) === Math.floor(index / PAGES_PER_GROUP) ? index : undefined;
}

/** Lines of a buffer as Claude Code counts them: every '\n', plus an unterminated last line. */
export function countLines(data: Buffer): { lines: number; terminated: boolean } {
  let lines = 0;
  for (let i = data.indexOf(NEWLINE); i >= 0; i = data.indexOf(NEWLINE, i + 1)) lines++;
  const terminated = data.length === 0 || data[data.length - 1] === NEWLINE;
  return { lines: terminated ? lines : lines + 1, terminated };
}
