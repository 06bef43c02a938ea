// How a session log is laid out in the store: cut at line boundaries into pages whose ends are
// chosen by the lines' own content. A log that grew by appends keeps its last snapshot's pages and
// only the appended lines are cut into new ones, so each snapshot stores what is new and no more.

import { createHash } from 'node:crypto';

export interface Page {
  /** Byte offset of the page in the log. */
  offset: number;
  bytes: number;
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
 * Pages of about 190 KB, none under 64 KB except a log's last. A grown log keeps its earlier pages
 * (see paginateAppended), so page size costs nothing in rewrites; larger pages compress closer to
 * the whole log, and a last page under 64 KB is re-cut with the next snapshot's lines. bench/store.js
 * compares smaller and larger pages and one blob per line.
 */
export const PAGE_RULE: PageRule = { minBytes: 64 * 1024, spreadBytes: 128 * 1024, maxBytes: 1024 * 1024 };

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

/** Where a page lies in the log, before its bytes are hashed for its id. */
export type PagePlace = Omit<Page, 'id'>;

/**
 * Where a log is cut into pages. The decision to end a page after a line depends only on that
 * line and the bytes since the last cut, so the pages of a prefix are the pages of the grown log;
 * an unterminated last line (a write in progress) never ends a page.
 */
export function pagePlaces(data: Buffer, rule: PageRule = PAGE_RULE): PagePlace[] {
  const places: PagePlace[] = [];
  let start = 0;
  let pos = 0;
  while (pos < data.length) {
    const nl = data.indexOf(NEWLINE, pos);
    const end = nl < 0 ? data.length : nl + 1;
    const size = end - start;
    if (nl >= 0 && size >= rule.minBytes) {
      const chance = (end - pos) / rule.spreadBytes;
      if (size >= rule.maxBytes || lineHash(data, pos, nl) < chance * 0x1_0000_0000) {
        places.push({ offset: start, bytes: end - start });
        start = end;
      }
    }
    pos = end;
  }
  if (start < data.length) places.push({ offset: start, bytes: data.length - start });
  return places;
}

/** The pages at these places of `data`, each with its git blob id. */
export function pagesAt(data: Buffer, places: PagePlace[]): Page[] {
  return places.map(({ offset, bytes }) => ({ offset, bytes, id: gitBlobId(data.subarray(offset, offset + bytes)) }));
}

/** Cuts a log into pages (pagePlaces), each with its git blob id. */
export function paginate(data: Buffer, rule: PageRule = PAGE_RULE): Page[] {
  return pagesAt(data, pagePlaces(data, rule));
}

/**
 * The pages of a log that grew by appends from one stored as `before` (the caller checked that
 * `data` begins with exactly those pages): they are kept, except a last page under minBytes, which
 * is cut again together with what followed, so small snapshots do not leave small pages behind.
 */
export function paginateAppended(data: Buffer, before: { id: string; bytes: number }[], rule: PageRule = PAGE_RULE): Page[] {
  const kept = before.length > 0 && before[before.length - 1].bytes < rule.minBytes ? before.slice(0, -1) : before;
  const pages: Page[] = [];
  let offset = 0;
  for (const page of kept) {
    pages.push({ offset, bytes: page.bytes, id: page.id });
    offset += page.bytes;
  }
  for (const page of paginate(data.subarray(offset), rule)) pages.push({ ...page, offset: page.offset + offset });
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
