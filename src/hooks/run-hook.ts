// What a cmv hook does when Claude Code runs it. PreCompact: snapshot the log (when the store can
// be used) and trim it in place before the lossy compaction. PostToolUse size guard: trim only
// when the log grew past the threshold since its last trim. The caller bounds the time.

import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { CmvError } from '../errors.js';
import type { CmvConfig } from '../config/config-keys.js';
import type { HookKind } from './hook-entries.js';
import { sizeGuardDecision } from './size-guard.js';
import { appendTrimRecord, guardStateOf, setGuardState, type TrimRecord } from './trim-journal.js';
import { trimLogInPlace } from './trim-in-place.js';
import type { HistoryChain } from '../trim/history-chain.js';

/** The fields cmv reads of the JSON Claude Code sends a hook on stdin. */
export interface HookInput {
  session_id?: string;
  transcript_path: string;
  cwd?: string;
  hook_event_name?: string;
  /** PreCompact: "manual" (/compact) or "auto". */
  trigger?: string;
  tool_name?: string;
}

export interface HookOutcome {
  kind: HookKind;
  action: 'trimmed' | 'unchanged' | 'waiting' | 'busy';
  /** One line for Claude Code's transcript (PreCompact shows a hook's stdout). */
  message: string;
  record?: TrimRecord;
  snapshot?: string;
  /** Things that went wrong but did not stop the hook (a failed snapshot). */
  notes: string[];
  /** The trim took the history's chain (or its first part) from the snapshot, which read it anyway. */
  historyHanded?: boolean;
}

export function parseHookInput(text: string): HookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CmvError('BAD_INPUT', `hook input is not JSON: ${JSON.stringify(text.slice(0, 120))}`, { hint: 'cmv hook run is meant to be started by Claude Code' });
  }
  const input = value as Partial<HookInput> | null;
  if (!input || typeof input.transcript_path !== 'string' || !isAbsolute(input.transcript_path) || !input.transcript_path.endsWith('.jsonl')) {
    throw new CmvError('BAD_INPUT', 'hook input has no absolute transcript_path to a .jsonl log', { hint: 'cmv hook run is meant to be started by Claude Code' });
  }
  return input as HookInput;
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function describe(record: TrimRecord): string {
  const saved = record.tokensBefore > 0 ? Math.round((1 - record.tokensAfter / record.tokensBefore) * 100) : 0;
  const id = record.sessionId?.slice(0, 8) ?? record.path;
  return `cmv: trimmed the log ${mb(record.bytesBefore)} -> ${mb(record.bytesAfter)} (-${saved}% tokens); backup kept, \`cmv hook restore ${id}\` undoes it`;
}

/**
 * Snapshots the log; `onRead` is called once the snapshot holds the log's bytes (or it failed
 * before): from then on the log may change without changing the snapshot.
 */
async function snapshotBefore(path: string, sessionId: string | undefined, env: NodeJS.ProcessEnv, onRead: () => void, handChain: (chain: HistoryChain | undefined) => void): Promise<string> {
  const { openStore } = await import('../store/store.js');
  const { takeSnapshot } = await import('../store/snapshot.js');
  const store = await openStore(env);
  const result = await takeSnapshot(store, path, { message: `before compaction${sessionId ? ` of ${sessionId}` : ''} (cmv PreCompact hook)`, tags: ['pre-compact'], onRead, handChain });
  return result.name;
}

export interface RunContext {
  config: CmvConfig;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  /** The hook's deadline (ms since the epoch): the log is not replaced after it. */
  deadline?: number;
}

export async function runHook(kind: HookKind, input: HookInput, context: RunContext): Promise<HookOutcome> {
  const path = input.transcript_path;
  const env = context.env ?? process.env;
  const notes: string[] = [];
  const bytesNow = (await stat(path)).size;
  let snapshot: string | undefined;

  if (kind === 'size-guard') {
    const decision = sizeGuardDecision(bytesNow, await guardStateOf(path), context.config['hook.growthBytes']);
    if (decision.action === 'rebase') {
      await setGuardState(path, decision.bytes);
      return { kind, action: 'waiting', message: '', notes };
    }
    if (decision.action === 'wait') return { kind, action: 'waiting', message: '', notes };
  }

  const trim = (historyWorker?: boolean, replaceAfter?: Promise<unknown>, handedHistory?: Promise<HistoryChain | undefined>) =>
    // The size guard never waits for another trim of the same log; PreCompact waits a little.
    trimLogInPlace(path, {
      threshold: context.config['trim.threshold'],
      by: kind,
      lockWaitMs: kind === 'size-guard' ? 0 : 5_000,
      deadline: context.deadline,
      now: context.now,
      historyWorker,
      replaceAfter,
      handedHistory,
    });
  let outcome: Awaited<ReturnType<typeof trim>>;
  if (kind === 'pre-compact' && context.config['hook.snapshot']) {
    // The snapshot and the trim start at once: the trim backs the log up and trims the backup
    // while the snapshot opens the store, reads the log, models it and git stores it; only the
    // trim's replacing of the log waits until the snapshot holds the log as it was. The hook
    // returns when both are done (the snapshot stored, its refs moved; the log trimmed after a
    // backup), whichever fails.
    let read!: () => void;
    const holdsLog = new Promise<void>((resolve) => (read = resolve));
    // The first snapshot of a long log reads its history whole in a worker thread: it hands the
    // trim that history's chain, so the history is read once, not once by each.
    let handChain!: (chain: HistoryChain | undefined) => void;
    const handed = new Promise<HistoryChain | undefined>((resolve) => (handChain = resolve));
    const taking = snapshotBefore(path, input.session_id, env, read, handChain).then(
      (name) => void (snapshot = name),
      (error: Error) => void notes.push(`snapshot skipped: ${error.message}`),
    );
    void taking.finally(() => {
      read();
      handChain(undefined);
    });
    // The snapshot's worker and its compression keep the other core busy: without a chain from
    // the snapshot, the trim reads the history in this thread (a worker of its own cost
    // 0.15-0.35 s more CPU than it saved here).
    const [trimmed] = await Promise.allSettled([trim(false, holdsLog, handed), taking]);
    if (trimmed.status === 'rejected') throw trimmed.reason;
    outcome = trimmed.value;
  } else {
    outcome = await trim();
  }
  if (outcome.status === 'busy') return { kind, action: 'busy', message: '', snapshot, notes };
  if (outcome.status === 'unchanged') {
    await setGuardState(path, outcome.bytes);
    return { kind, action: 'unchanged', message: snapshot ? `cmv: snapshot ${snapshot} taken; the log was already trimmed` : '', snapshot, notes };
  }
  const record: TrimRecord = { ...outcome.record, snapshot };
  await appendTrimRecord(record);
  await setGuardState(path, (await stat(path)).size);
  const message = `${describe(record)}${snapshot ? `; snapshot ${snapshot}` : ''}`;
  return { kind, action: 'trimmed', message, record, snapshot, notes, ...(outcome.historyHanded ? { historyHanded: true } : {}) };
}
