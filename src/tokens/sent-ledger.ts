// Tokens of the messages Claude Code sends on resume, one sent entry at a time, before and after
// a trim. Pure bookkeeping: records in, counts out; sent-counter.ts decides which thread counts.

import { openSync, readSync, closeSync } from 'node:fs';
import { recordTokens, type RecordTokens } from './breakdown.js';
import { parseRecords } from '../session/entry.js';
import { withoutTopLevelField } from '../session/skim.js';
import type { JsonObject } from '../session/payload.js';

/** Where a sent record lives in the log, for counting it away from the thread that indexed it. */
export interface SentRecordRef {
  offset: number;
  length: number;
  /** Position within a glued line (0 for ordinary lines). */
  record: number;
  isAssistant: boolean;
}

export interface SentTotals {
  /** Per sent entry of the original, in the order they were given. */
  before: RecordTokens[];
  /** The same entries after the trim: null for an entry the trim removed. */
  after: (RecordTokens | null)[];
}

export class SentTokenLedger {
  private readonly before: RecordTokens[] = [];
  private readonly trimmed = new Map<number, RecordTokens | null>();

  constructor(private readonly toolNames: ReadonlyMap<string, string>) {}

  original(index: number, isAssistant: boolean, record: JsonObject): void {
    this.before[index] = recordTokens(isAssistant, record, this.toolNames);
  }

  /** The entry as the trim left it (null: removed). Entries never given here are unchanged. */
  trimmedAs(index: number, isAssistant: boolean, record: JsonObject | null): void {
    this.trimmed.set(index, record ? recordTokens(isAssistant, record, this.toolNames) : null);
  }

  totals(): SentTotals {
    const empty: RecordTokens = { total: 0, byKind: { userText: 0, assistantText: 0, thinking: 0, toolUseInput: 0, toolResult: 0, image: 0 }, byTool: {} };
    const before = Array.from(this.before, (t) => t ?? empty);
    return { before, after: before.map((t, i) => (this.trimmed.has(i) ? this.trimmed.get(i)! : t)) };
  }
}

/** Counts the original records by reading their lines from the log (the token worker's half of the job). */
export function countOriginalsFromFile(path: string, refs: readonly SentRecordRef[], ledger: SentTokenLedger): void {
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.alloc(64 * 1024);
    refs.forEach((ref, index) => {
      if (ref.length > buffer.length) buffer = Buffer.alloc(ref.length);
      const bytes = buffer.subarray(0, readSync(fd, buffer, 0, ref.length, ref.offset));
      // The sidecar is never sent and is often most of the line: cut before parsing.
      const slim = ref.record === 0 ? (withoutTopLevelField(bytes, 'toolUseResult') ?? bytes) : bytes;
      const record = parseRecords(slim)[ref.record];
      ledger.original(index, ref.isAssistant, record && typeof record === 'object' ? (record as JsonObject) : {});
    });
  } finally {
    closeSync(fd);
  }
}
