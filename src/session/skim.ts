// A byte-level skim of one log line: reads the fields the conversation model needs (kind, chain
// links, message ids, the shape of the content) without decoding the payload strings, which hold
// nearly all of a log's bytes. Anything unexpected returns undefined, and the caller falls back
// to JSON.parse, so the skim can only be faster, never different.

import type { BlockInfo, SessionEntry } from './entry.js';
import { readUsage } from './usage-record.js';
import { shared } from './interned.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

class NotSkimmable extends Error {}
const NOT_SKIMMABLE = new NotSkimmable();

const JSON_LITERAL = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)$/;

/** Keys up to this long are remembered (see Skim.key). */
const MAX_CACHED_KEY = 40;
const KEYS = new Map<number, string[]>();

/** Strings shorter than this are decoded; longer ones are only measured. */
const DECODE_LIMIT = 512;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

type FieldVisitor = (key: string, start: number, end: number, keyStart: number) => void;
/** Reads a container value itself and returns where it ends, or undefined to leave it to the visitor. */
type FieldWalker = (key: string, start: number) => number | undefined;

/** Buffer's own slice bindings: toString() adds argument checks that dominate on short keys. */
interface FastSlices {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

class Skim {
  private readonly fast: FastSlices;
  constructor(readonly b: Buffer) {
    this.fast = b as unknown as FastSlices;
  }

  ws(i: number): number {
    const b = this.b;
    while (i < b.length && isSpace(b[i])) i++;
    return i;
  }

  /** A key's text; the few dozen keys of Claude Code's records are decoded once per process, not once per line. */
  key(start: number, end: number): string {
    const b = this.b;
    const length = end - start;
    if (length === 0 || length > MAX_CACHED_KEY) return this.fast.latin1Slice(start, end);
    const slot = (length * 0x10000 + b[start] * 0x100 + b[end - 1]) ^ (b[start + (length >> 1)] << 24);
    const known = KEYS.get(slot);
    if (known) {
      for (const key of known) {
        let same = key.length === length;
        for (let i = 0; same && i < length; i++) same = key.charCodeAt(i) === b[start + i];
        if (same) return key;
      }
    }
    const key = this.fast.latin1Slice(start, end);
    if (!known) KEYS.set(slot, [key]);
    else if (known.length < 8) known.push(key);
    return key;
  }

  /** `i` at an opening quote; returns the index just past the closing one. */
  stringEnd(i: number): number {
    const b = this.b;
    let from = i + 1;
    for (;;) {
      const q = b.indexOf(QUOTE, from);
      if (q < 0) throw NOT_SKIMMABLE;
      let k = q - 1;
      while (k > i && b[k] === BACKSLASH) k--;
      if ((q - 1 - k) % 2 === 0) return q + 1;
      from = q + 1;
    }
  }

  containerEnd(i: number): number {
    const b = this.b;
    let depth = 0;
    let j = i;
    while (j < b.length) {
      const c = b[j];
      if (c === QUOTE) {
        j = this.stringEnd(j);
        continue;
      }
      if (c === LBRACE || c === LBRACKET) depth++;
      else if (c === RBRACE || c === RBRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    throw NOT_SKIMMABLE;
  }

  valueEnd(i: number): number {
    const b = this.b;
    const c = b[i];
    if (c === QUOTE) return this.stringEnd(i);
    if (c === LBRACE || c === LBRACKET) return this.containerEnd(i);
    let j = i;
    while (j < b.length) {
      const d = b[j];
      if (d === COMMA || d === RBRACE || d === RBRACKET || isSpace(d)) break;
      j++;
    }
    // A literal JSON.parse would refuse (01, tru, NaN) makes the line one Claude Code skips.
    if (j === i || !JSON_LITERAL.test(this.fast.latin1Slice(i, j))) throw NOT_SKIMMABLE;
    return j;
  }

  /**
   * Visits the fields of the object starting at `i`; returns the index past it. A value `walk`
   * reads itself is not scanned a second time to find its end.
   */
  fields(i: number, visit: FieldVisitor, walk?: FieldWalker): number {
    const b = this.b;
    if (b[i] !== LBRACE) throw NOT_SKIMMABLE;
    let j = this.ws(i + 1);
    if (b[j] === RBRACE) return j + 1;
    for (;;) {
      if (b[j] !== QUOTE) throw NOT_SKIMMABLE;
      const keyStart = j;
      const keyEnd = this.stringEnd(j);
      // Claude Code's keys are plain ASCII identifiers: no escapes to decode.
      const key = this.key(j + 1, keyEnd - 1);
      j = this.ws(keyEnd);
      if (b[j] !== COLON) throw NOT_SKIMMABLE;
      const start = this.ws(j + 1);
      const walked = walk?.(key, start);
      let end: number;
      if (walked === undefined) {
        end = this.valueEnd(start);
        visit(key, start, end, keyStart);
      } else {
        end = walked;
      }
      j = this.ws(end);
      if (b[j] === COMMA) {
        j = this.ws(j + 1);
        continue;
      }
      if (b[j] === RBRACE) return j + 1;
      throw NOT_SKIMMABLE;
    }
  }

  /** Walks the elements of the array starting at `i`: `walk` reads each and returns where it ends. */
  elements(i: number, walk: (start: number) => number): number {
    const b = this.b;
    if (b[i] !== LBRACKET) throw NOT_SKIMMABLE;
    let j = this.ws(i + 1);
    if (b[j] === RBRACKET) return j + 1;
    for (;;) {
      const end = walk(j);
      j = this.ws(end);
      if (b[j] === COMMA) {
        j = this.ws(j + 1);
        continue;
      }
      if (b[j] === RBRACKET) return j + 1;
      throw NOT_SKIMMABLE;
    }
  }

  decodeString(start: number, end: number): string {
    const escape = this.b.indexOf(BACKSLASH, start + 1);
    if (escape !== -1 && escape < end - 1) return JSON.parse(this.fast.utf8Slice(start, end)) as string;
    return this.fast.utf8Slice(start + 1, end - 1);
  }

  str(start: number, end: number): string | undefined {
    return this.b[start] === QUOTE ? this.decodeString(start, end) : undefined;
  }

  literal(start: number, end: number): string {
    return this.fast.latin1Slice(start, end);
  }

  isNull(start: number, end: number): boolean {
    return end - start === 4 && this.literal(start, end) === 'null';
  }

  isTrue(start: number, end: number): boolean {
    return end - start === 4 && this.literal(start, end) === 'true';
  }

  /** Length of a string value: exact for short ones, the byte length of its JSON for long ones. */
  stringChars(start: number, end: number): number {
    if (this.b[start] !== QUOTE) return end - start;
    return end - start <= DECODE_LIMIT ? this.decodeString(start, end).length : end - start - 2;
  }

  isBlankString(start: number, end: number): boolean {
    if (this.b[start] !== QUOTE) return false;
    if (end - start > DECODE_LIMIT) {
      // Long text is blank only if its first bytes may be whitespace (raw, escaped like \t or
      // \u00a0, or non-ASCII like U+3000); decode just then.
      const b = this.b;
      for (let k = start + 1; k < start + 64; k++) {
        const c = b[k];
        if (c === BACKSLASH) k += b[k + 1] === 0x75 ? 5 : 1;
        else if (c < 0x80 && !isSpace(c)) return false;
      }
    }
    return this.decodeString(start, end).trim() === '';
  }

  json(start: number, end: number): unknown {
    return JSON.parse(this.fast.utf8Slice(start, end));
  }
}

/** Reads the block object at `start`; returns it and the index past it. */
function skimBlock(s: Skim, start: number): { block: BlockInfo; end: number } {
  let type = 'unknown';
  let toolId: string | undefined;
  let name: string | undefined;
  let isError = false;
  let chars = 0;
  let blankSpan: [number, number] | undefined;
  let payload = 0;
  const end = s.fields(start, (key, vs, ve) => {
    switch (key) {
      case 'type':
        type = shared(s.str(vs, ve)) ?? 'unknown';
        break;
      case 'id':
        toolId ??= s.str(vs, ve);
        break;
      case 'tool_use_id':
        toolId = s.str(vs, ve);
        break;
      case 'name':
        name = shared(s.str(vs, ve));
        break;
      case 'is_error':
        isError = s.isTrue(vs, ve);
        break;
      case 'text':
        chars = s.stringChars(vs, ve);
        blankSpan = [vs, ve];
        break;
      case 'thinking':
      case 'data':
        chars = s.stringChars(vs, ve);
        break;
      case 'input':
      case 'content':
        chars = s.stringChars(vs, ve);
        break;
      case 'source':
        s.fields(vs, (k, a, z) => {
          if (k === 'data') chars = s.stringChars(a, z);
        });
        break;
      default:
        payload += ve - vs;
    }
  });
  const info: BlockInfo = { type, chars: chars || payload };
  if (type === 'text') info.blank = blankSpan ? s.isBlankString(blankSpan[0], blankSpan[1]) : true;
  if (type === 'tool_use' || type === 'server_tool_use') {
    info.toolId = toolId;
    info.name = name;
  } else if (type === 'tool_result' || type.endsWith('_tool_result')) {
    info.toolId = toolId;
    if (isError) info.isError = true;
  }
  return { block: info, end };
}

/**
 * Reads one line's entry without decoding its payload, or undefined when only JSON.parse can tell.
 * With `chainOnly`, the message is stepped over: the entry has its kind, ids, time and chain links,
 * but no content blocks, usage, message ids, version, cwd or branch (enough for lines a trim drops unread).
 */
export function skimEntry(bytes: Buffer, line: number, chainOnly = false): SessionEntry | undefined {
  const s = new Skim(bytes);
  try {
    const first = s.ws(0);
    if (bytes[first] !== LBRACE) return undefined;
    const entry: SessionEntry = {
      line,
      record: 0,
      type: 'unknown',
      isSidechain: false,
      isMeta: false,
      isCompactSummary: false,
      isVisibleInTranscriptOnly: false,
      isApiErrorMessage: false,
      blocks: [],
      contentIsString: false,
      toolUseResultChars: 0,
    };
    const end = s.fields(first, (key, vs, ve) => {
      switch (key) {
        case 'type':
          entry.type = shared(s.str(vs, ve)) ?? 'unknown';
          break;
        case 'subtype':
          entry.subtype = shared(s.str(vs, ve));
          break;
        case 'uuid':
          entry.uuid = s.str(vs, ve);
          break;
        case 'parentUuid':
          entry.parentUuid = s.isNull(vs, ve) ? null : s.str(vs, ve);
          break;
        case 'logicalParentUuid':
          entry.logicalParentUuid = s.str(vs, ve);
          break;
        case 'sessionId':
          entry.sessionId = shared(s.str(vs, ve));
          break;
        case 'timestamp':
          entry.timestamp = s.str(vs, ve);
          break;
        case 'version':
          if (!chainOnly) entry.version = shared(s.str(vs, ve));
          break;
        case 'cwd':
          if (!chainOnly) entry.cwd = shared(s.str(vs, ve));
          break;
        case 'gitBranch':
          if (!chainOnly) entry.gitBranch = shared(s.str(vs, ve));
          break;
        case 'agentId':
          entry.agentId = shared(s.str(vs, ve));
          break;
        case 'requestId':
          entry.requestId = s.str(vs, ve);
          break;
        case 'leafUuid':
          entry.leafUuid = s.str(vs, ve);
          break;
        case 'isSidechain':
          entry.isSidechain = s.isTrue(vs, ve);
          break;
        case 'isMeta':
          entry.isMeta = s.isTrue(vs, ve);
          break;
        case 'isCompactSummary':
          entry.isCompactSummary = s.isTrue(vs, ve);
          break;
        case 'isVisibleInTranscriptOnly':
          entry.isVisibleInTranscriptOnly = s.isTrue(vs, ve);
          break;
        case 'isApiErrorMessage':
          entry.isApiErrorMessage = s.isTrue(vs, ve);
          break;
        case 'toolUseResult':
          entry.toolUseResultChars = ve - vs;
          break;
      }
    }, (key, vs) => (key === 'message' && bytes[vs] === LBRACE ? (chainOnly ? s.valueEnd(vs) : skimMessage(s, vs, entry)) : undefined));
    if (s.ws(end) !== bytes.length) return undefined; // trailing bytes: glued or damaged
    return entry;
  } catch (error) {
    if (error instanceof NotSkimmable || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** Reads the message object at `start` into the entry; returns the index past it. */
function skimMessage(s: Skim, start: number, entry: SessionEntry): number {
  return s.fields(
    start,
    (key, vs, ve) => {
      switch (key) {
        case 'role':
          entry.role = shared(s.str(vs, ve));
          break;
        case 'id':
          entry.messageId = s.str(vs, ve);
          break;
        case 'model':
          entry.model = shared(s.str(vs, ve));
          break;
        case 'usage':
          entry.usage = readUsage(s.json(vs, ve));
          break;
        case 'content':
          if (s.b[vs] === QUOTE) {
            entry.contentIsString = true;
            entry.blocks = [{ type: 'text', chars: s.stringChars(vs, ve), blank: s.isBlankString(vs, ve) }];
          }
          break;
      }
    },
    (key, vs) => {
      if (key !== 'content' || s.b[vs] !== LBRACKET) return undefined;
      // Content blocks are read as they are met: the array is scanned once.
      return s.elements(vs, (bs) => {
        if (s.b[bs] !== LBRACE) return s.valueEnd(bs);
        const { block, end } = skimBlock(s, bs);
        entry.blocks.push(block);
        return end;
      });
    },
  );
}

/**
 * Removes a top-level field from a line's bytes without parsing the rest (the toolUseResult
 * sidecar often holds most of a line). Returns undefined when the line cannot be skimmed.
 */
export function withoutTopLevelField(bytes: Buffer, name: string): Buffer | undefined {
  const s = new Skim(bytes);
  try {
    const first = s.ws(0);
    if (bytes[first] !== LBRACE) return undefined;
    let span: [number, number] | undefined;
    let previousEnd = -1;
    const end = s.fields(first, (key, _vs, ve, keyStart) => {
      if (key === name && !span) {
        if (previousEnd >= 0) {
          span = [previousEnd, ve]; // from the end of the field before (its comma included)
        } else {
          const next = s.ws(ve);
          span = [keyStart, bytes[next] === COMMA ? s.ws(next + 1) : ve];
        }
      }
      previousEnd = ve;
    });
    if (s.ws(end) !== bytes.length || !span) return undefined;
    return Buffer.concat([bytes.subarray(0, span[0]), bytes.subarray(span[1])]);
  } catch (error) {
    if (error instanceof NotSkimmable || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Replaces the values of top-level fields (each given as JSON text) without parsing the rest of
 * the line, for rewrites that touch only chain links and ids. Returns undefined when the line
 * cannot be skimmed or a field is missing or repeated: the caller then parses the line.
 */
export function withTopLevelValues(bytes: Buffer, values: ReadonlyMap<string, string>): Buffer | undefined {
  const s = new Skim(bytes);
  try {
    const first = s.ws(0);
    if (bytes[first] !== LBRACE) return undefined;
    const spans: [number, number, string][] = [];
    let repeated = false;
    const end = s.fields(first, (key, vs, ve) => {
      const value = values.get(key);
      if (value === undefined) return;
      if (spans.some((span) => span[2] === key)) repeated = true;
      spans.push([vs, ve, key]);
    });
    if (repeated || spans.length !== values.size || s.ws(end) !== bytes.length) return undefined;
    const parts: Buffer[] = [];
    let at = 0;
    for (const [vs, ve, key] of spans) {
      parts.push(bytes.subarray(at, vs), Buffer.from(values.get(key)!));
      at = ve;
    }
    parts.push(bytes.subarray(at));
    return Buffer.concat(parts);
  } catch (error) {
    if (error instanceof NotSkimmable || error instanceof SyntaxError) return undefined;
    throw error;
  }
}
