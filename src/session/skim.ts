// A byte-level skim of one log line: reads the fields the conversation model needs (kind, chain
// links, message ids, the shape of the content) without decoding the payload strings, which hold
// nearly all of a log's bytes. Anything unexpected returns undefined, and the caller falls back
// to JSON.parse, so the skim can only be faster, never different: a line JSON.parse refuses (raw
// control characters, bad escapes, broken nesting anywhere) or reads differently (a repeated or
// escaped key) is never skimmed. test/session/skim-property.test.ts holds it to that.

import type { BlockInfo, SessionEntry } from './entry.js';
import { blankEntry, blockInfo } from './entry-shape.js';
import { readDerived, readPreservedSegment, readUsage, withoutForeignMessage } from './usage-record.js';
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

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** Keys up to this long are remembered (see Skim.key). */
const MAX_CACHED_KEY = 40;
const KEYS = new Map<number, string[]>();

/** Bytes JSON allows after a backslash (`u` is checked apart: four hex digits must follow). */
const ESCAPED = new Uint8Array(256);
for (const c of '"\\/bfnrt') ESCAPED[c.charCodeAt(0)] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

/**
 * True when JSON.parse may refuse the line for a byte the structural walk does not look at: a raw
 * control character (JSON.stringify never writes one, in or out of a string) or a backslash not
 * followed by a valid escape (a backslash last on the line counts as one: JSON.parse decides). One
 * pass over the bytes, escapes consumed as they come: a regular expression over the line as a
 * latin1 string took as long and left that string (the whole log, over a read) to the GC.
 */
function lineHasBadBytes(b: Buffer): boolean {
  const n = b.length;
  // Four bytes at a time where the line is aligned to them: a word without such a byte is skipped.
  const lead = Math.min(n, (4 - (b.byteOffset & 3)) & 3);
  const wordCount = n >= 64 ? (n - lead) >>> 2 : 0;
  const words = wordCount > 0 ? new Uint32Array(b.buffer, b.byteOffset + lead, wordCount) : undefined;
  let i = 0;
  while (i < n) {
    if (words && i >= lead && ((i - lead) & 3) === 0) {
      let w = (i - lead) >>> 2;
      while (w < wordCount && !wordMayBeBad(words[w])) w++;
      i = lead + w * 4;
      if (i >= n) return false;
    }
    const c = b[i];
    if (c >= 0x20 && c !== BACKSLASH) {
      i++;
      continue;
    }
    if (c < 0x20 || i + 1 >= n) return true;
    const e = b[++i];
    if (e === 0x75) {
      if (i + 4 >= n || !HEX[b[i + 1]] || !HEX[b[i + 2]] || !HEX[b[i + 3]] || !HEX[b[i + 4]]) return true;
      i += 5;
    } else if (!ESCAPED[e]) return true;
    else i++;
  }
  return false;
}

/**
 * Nonzero when one of the four bytes of `x` is below 0x20 or a backslash (which one is not told:
 * a borrow may mark a byte above the first that is): the classic has-less-than and has-zero tests.
 */
function wordMayBeBad(x: number): number {
  const y = x ^ 0x5c5c5c5c;
  return (((x - 0x20202020) & ~x) | ((y - 0x01010101) & ~y)) & 0x80808080;
}

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

const TOOL_REFERENCE = Buffer.from('"tool_reference"');

class Skim {
  private readonly fast: FastSlices;
  /**
   * Blocks are measured (their text's length, whether a result loads tools); false for a reader
   * that reads neither (a snapshot's facts), which then skips decoding short strings to count them.
   */
  measure = true;
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
    if (length === 0 || length > MAX_CACHED_KEY) {
      const key = this.fast.latin1Slice(start, end);
      if (key.includes('\\')) throw NOT_SKIMMABLE;
      return key;
    }
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
    // An escaped key ("ty\u0070e") is "type" to JSON.parse: only JSON.parse may read it.
    if (key.includes('\\')) throw NOT_SKIMMABLE;
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

  /**
   * The end of the object or array at `i`, checked as JSON.parse checks it (keys, colons, commas,
   * literals), without a call stack per level: a hostile line nested 100,000 deep is just refused.
   */
  containerEnd(i: number): number {
    const b = this.b;
    const open: boolean[] = []; // per level: an object (true) or an array
    let j = i;
    for (;;) {
      // A value starts at j.
      j = this.ws(j);
      const c = b[j];
      if (c === LBRACE || c === LBRACKET) {
        const object = c === LBRACE;
        open.push(object);
        j = this.ws(j + 1);
        if (b[j] === (object ? RBRACE : RBRACKET)) {
          open.pop();
          j++;
        } else {
          if (object) j = this.memberValue(j);
          continue;
        }
      } else {
        j = this.scalarEnd(j);
      }
      // After a value: close levels until one goes on with a comma.
      for (;;) {
        if (open.length === 0) return j;
        j = this.ws(j);
        const object = open[open.length - 1];
        if (b[j] === COMMA) {
          j = this.ws(j + 1);
          if (object) j = this.memberValue(j);
          break;
        }
        if (b[j] !== (object ? RBRACE : RBRACKET)) throw NOT_SKIMMABLE;
        open.pop();
        j++;
      }
    }
  }

  /** `i` at a member's key; returns where its value starts. */
  private memberValue(i: number): number {
    if (this.b[i] !== QUOTE) throw NOT_SKIMMABLE;
    const j = this.ws(this.stringEnd(i));
    if (this.b[j] !== COLON) throw NOT_SKIMMABLE;
    return j + 1;
  }

  /** The end of the string or literal at `i`. */
  private scalarEnd(i: number): number {
    const b = this.b;
    const c = b[i];
    if (c === QUOTE) return this.stringEnd(i);
    // true, false, null: checked byte by byte (no string made for the few million of a long log).
    if (c === 0x74) return this.word(i, TRUE);
    if (c === 0x66) return this.word(i, FALSE);
    if (c === 0x6e) return this.word(i, NULL);
    return this.numberEnd(i);
  }

  private word(i: number, word: Uint8Array): number {
    const b = this.b;
    for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) throw NOT_SKIMMABLE;
    return this.literalEnds(i + word.length);
  }

  /** A JSON number at `i` (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), as JSON.parse reads one. */
  private numberEnd(i: number): number {
    const b = this.b;
    let j = i;
    if (b[j] === 0x2d) j++;
    if (b[j] === 0x30) j++;
    else if (b[j] >= 0x31 && b[j] <= 0x39) while (b[j] >= 0x30 && b[j] <= 0x39) j++;
    else throw NOT_SKIMMABLE;
    if (b[j] === 0x2e) {
      j++;
      if (!(b[j] >= 0x30 && b[j] <= 0x39)) throw NOT_SKIMMABLE;
      while (b[j] >= 0x30 && b[j] <= 0x39) j++;
    }
    if (b[j] === 0x65 || b[j] === 0x45) {
      j++;
      if (b[j] === 0x2b || b[j] === 0x2d) j++;
      if (!(b[j] >= 0x30 && b[j] <= 0x39)) throw NOT_SKIMMABLE;
      while (b[j] >= 0x30 && b[j] <= 0x39) j++;
    }
    return this.literalEnds(j);
  }

  /** A literal must end where a value may: the line's end, a separator or a closer. */
  private literalEnds(j: number): number {
    const d = this.b[j];
    if (j < this.b.length && d !== COMMA && d !== RBRACE && d !== RBRACKET && !isSpace(d)) throw NOT_SKIMMABLE;
    return j;
  }

  valueEnd(i: number): number {
    const c = this.b[i];
    return c === LBRACE || c === LBRACKET ? this.containerEnd(i) : this.scalarEnd(i);
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
    const seen: string[] = [];
    for (;;) {
      if (b[j] !== QUOTE) throw NOT_SKIMMABLE;
      const keyStart = j;
      const keyEnd = this.stringEnd(j);
      // Claude Code's keys are plain ASCII identifiers: no escapes to decode.
      const key = this.key(j + 1, keyEnd - 1);
      // JSON.parse keeps the last of repeated keys; the visitors would mix them.
      if (seen.includes(key)) throw NOT_SKIMMABLE;
      seen.push(key);
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

  /** Whether the raw bytes of [start, end) hold `needle`. */
  contains(start: number, end: number, needle: Buffer): boolean {
    const at = this.b.indexOf(needle, start);
    return at >= 0 && at + needle.length <= end;
  }

  /** Length of a string value: exact for short ones, the byte length of its JSON for long ones (0 unmeasured). */
  stringChars(start: number, end: number): number {
    if (!this.measure) return 0;
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
  let id: string | undefined;
  let toolUseId: string | undefined;
  let name: string | undefined;
  let isError = false;
  let loadsTools = false;
  let chars = 0;
  let blankSpan: [number, number] | undefined;
  let payload = 0;
  const end = s.fields(start, (key, vs, ve) => {
    switch (key) {
      case 'type':
        type = shared(s.str(vs, ve)) ?? 'unknown';
        break;
      case 'id':
        id = s.str(vs, ve);
        break;
      case 'tool_use_id':
        toolUseId = s.str(vs, ve);
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
        chars = s.stringChars(vs, ve);
        break;
      case 'content':
        chars = s.stringChars(vs, ve);
        // A ToolSearch result loads tools through tool_reference blocks (2.1.332 adds "Tool loaded." after it).
        if (s.measure && s.contains(vs, ve, TOOL_REFERENCE)) loadsTools = true;
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
  const info = blockInfo(type, chars || payload);
  // A text that is not a string counts as blank, as toEntry counts it.
  if (type === 'text') info.blank = blankSpan && s.b[blankSpan[0]] === QUOTE ? s.isBlankString(blankSpan[0], blankSpan[1]) : true;
  if (type === 'tool_use' || type === 'server_tool_use') {
    info.toolId = id;
    info.name = name;
  } else if (type === 'tool_result' || type.endsWith('_tool_result')) {
    info.toolId = toolUseId;
    if (isError) info.isError = true;
    if (loadsTools) info.loadsTools = true;
  }
  return { block: info, end };
}

/**
 * Reads one line's entry without decoding its payload, or undefined when only JSON.parse can tell.
 * With `chainOnly`, the message is stepped over: the entry has its kind, ids, time and chain links,
 * but no content blocks, usage, message ids, version, cwd or branch (enough for lines a trim drops unread).
 * With `measure` false, blocks are read but not measured: their `chars` are 0 and no result is
 * said to load tools (a snapshot's facts read neither).
 */
export function skimEntry(bytes: Buffer, line: number, chainOnly = false, measure = true): SessionEntry | undefined {
  const s = new Skim(bytes);
  s.measure = measure;
  try {
    const first = s.ws(0);
    if (bytes[first] !== LBRACE || lineHasBadBytes(bytes)) return undefined;
    const entry = blankEntry(line, 0);
    const end = s.fields(
      first,
      (key, vs, ve) => {
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
          case 'cmvDerived':
            entry.derived = readDerived(s.json(vs, ve));
            break;
          case 'toolUseResult':
            entry.toolUseResultChars = ve - vs;
            break;
          case 'compactMetadata':
            entry.preservedSegment = readPreservedSegment(s.json(vs, ve));
            break;
        }
      },
      (key, vs) => (key === 'message' && bytes[vs] === LBRACE ? (chainOnly ? s.valueEnd(vs) : skimMessage(s, vs, entry)) : undefined),
    );
    if (s.ws(end) !== bytes.length) return undefined; // trailing bytes: glued or damaged
    return withoutForeignMessage(entry);
  } catch (error) {
    if (error instanceof NotSkimmable || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * What `skimEntry(bytes, line, true)` gives for a line `skimEntry(bytes, line)` read whole as
 * `entry` (its line numbered `line`): the message's fields and the version, cwd and branch left out. The top-level fields
 * are read by the same code either way, and a line whose message the whole read took is one a
 * chain-only read steps over (both check it as JSON.parse would), so one read of a line serves
 * both (test/session/skim-chain.test.ts checks every corpus line).
 */
export function chainOnlyOf(entry: SessionEntry, line: number): SessionEntry {
  return { ...entry, line, version: undefined, cwd: undefined, gitBranch: undefined, role: undefined, messageId: undefined, model: undefined, usage: undefined, blocks: [], contentIsString: false };
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
            const info = blockInfo('text', s.stringChars(vs, ve));
            info.blank = s.isBlankString(vs, ve);
            entry.blocks = [info];
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
    if (bytes[first] !== LBRACE || lineHasBadBytes(bytes)) return undefined;
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
    if (bytes[first] !== LBRACE || lineHasBadBytes(bytes)) return undefined;
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
