// Small invented logs with the shapes of the real logs `cmv trim` refused or would have mistrimmed
// (issue 16; ../shared/bench/trim-cases describes the shapes and what Claude Code 2.1.100 does with
// each). Written here so the tests need no ../shared: every text and id is made up.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, any>;

const SESSION = '5e551011-ca5e-4a11-9b0b-000000000016';
const CWD = '/tmp/cmv-trim-cases';

function common(parentUuid: string | null): Json {
  return { parentUuid, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.1.29', gitBranch: 'main' };
}

/** Writes log lines built by a case, one record (or raw text) per line. */
class CaseLog {
  readonly lines: string[] = [];
  private seq = 0;
  private responses = 0;

  constructor(
    private readonly prefix: string,
    private readonly start: string,
  ) {}

  uuid(n: number): string {
    return `c0ffee00-0000-4000-8000-${this.prefix}${String(n).padStart(12 - this.prefix.length, '0')}`;
  }

  /** A time `seconds` after the case's start. */
  at(seconds: number): string {
    return new Date(Date.parse(this.start) + seconds * 1000).toISOString();
  }

  private push(record: Json): string {
    this.lines.push(JSON.stringify(record));
    return record.uuid;
  }

  raw(text: string): void {
    this.lines.push(text);
  }

  user(parent: string | null, seconds: number, content: unknown, extra: Json = {}): string {
    return this.push({ ...common(parent), type: 'user', message: { role: 'user', content }, uuid: this.uuid(++this.seq), timestamp: this.at(seconds), ...extra });
  }

  assistant(parent: string | null, seconds: number, content: Json[]): string {
    const n = ++this.responses;
    const usage = { input_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 15 };
    return this.push({
      ...common(parent),
      message: { model: 'claude-sonnet-4-5-20250929', id: `msg_case${this.prefix}${n}`, type: 'message', role: 'assistant', content, stop_reason: null, stop_sequence: null, usage },
      requestId: `req_case${this.prefix}${n}`,
      type: 'assistant',
      uuid: this.uuid(++this.seq),
      timestamp: this.at(seconds),
    });
  }

  /** A Bash call and its (long) result: the trim stubs the result. */
  bash(parent: string, seconds: number, command: string, output: string): string {
    const id = `toolu_case${this.prefix}${String(++this.seq).padStart(16, '0')}`;
    const use = this.assistant(parent, seconds, [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'Run it' } }]);
    return this.user(use, seconds + 1, [{ tool_use_id: id, type: 'tool_result', content: output, is_error: false }], {
      toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false },
    });
  }

  progress(parent: string | null, seconds: number, hookEvent: string): string {
    const hook = `hook-${this.prefix}${++this.seq}`;
    return this.push({
      ...common(parent),
      type: 'progress',
      data: { type: 'hook_progress', hookEvent, hookName: `${hookEvent}:run`, command: 'true' },
      parentToolUseID: hook,
      toolUseID: hook,
      timestamp: this.at(seconds),
      uuid: this.uuid(this.seq),
    });
  }

  stopHookSummary(parent: string, seconds: number): string {
    return this.push({
      ...common(parent),
      type: 'system',
      subtype: 'stop_hook_summary',
      hookCount: 1,
      hookInfos: [{ command: 'true' }],
      hookErrors: [],
      preventedContinuation: false,
      stopReason: '',
      hasOutput: false,
      level: 'suggestion',
      timestamp: this.at(seconds),
      uuid: this.uuid(++this.seq),
    });
  }

  /** A compaction: the boundary and the summary that follows it. */
  compaction(seconds: number, summary: string): string {
    const boundary = this.push({
      ...common(null),
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: this.at(seconds),
      uuid: this.uuid(++this.seq),
      level: 'info',
      compactMetadata: { trigger: 'manual', preTokens: 4000 },
      logicalParentUuid: null,
    });
    return this.user(boundary, seconds, `This session is being continued from a previous conversation that ran out of context. Summary: ${summary}`, {
      isVisibleInTranscriptOnly: true,
      isCompactSummary: true,
    });
  }

  write(dir: string, name: string): string {
    const path = join(dir, name);
    writeFileSync(path, this.lines.join('\n') + '\n');
    return path;
  }
}

/** A tool output longer than the stub threshold. */
function output(topic: string, lines = 10): string {
  return Array.from({ length: lines }, (_, i) => `${topic}: row ${i + 1} of the listing, long enough that the trim stubs it`).join('\n');
}

export interface TrimCase {
  id: 'A' | 'B' | 'B2' | 'C' | 'C2' | 'D';
  shape: string;
  path: string;
  /** The user and assistant texts Claude Code 2.1.100 sends on resume of the original, in order. */
  resumes: string[];
  /** Texts of the log that resume does not send (the trim may keep or drop them). */
  notResumed: string[];
}

/** A: plan mode cleared the context, and the new chain hangs from a SessionStart progress line whose parent is null. */
function caseA(dir: string): TrimCase {
  const log = new CaseLog('a', '2026-02-14T08:00:00.000Z');
  const q = log.user(null, 0, 'Sketch how the exporter should work.');
  log.assistant(q, 2, [{ type: 'text', text: 'Here is a plan for the exporter.' }]);
  const hook = log.progress(null, 120, 'SessionStart');
  const ask = log.user(hook, 121, 'Go ahead with the exporter plan.');
  const result = log.bash(ask, 123, 'ls src/export', output('export'));
  log.assistant(result, 126, [{ type: 'text', text: 'The exporter now writes CSV.' }]);
  return {
    id: 'A',
    shape: 'a chain rooted in a progress line after plan mode cleared the context',
    path: log.write(dir, 'case-a.jsonl'),
    resumes: ['Go ahead with the exporter plan.', 'The exporter now writes CSV.'],
    notResumed: ['Sketch how the exporter should work.', 'Here is a plan for the exporter.'],
  };
}

/** B: a partial log lacks a turn's last line; the Stop hook's lines name it, 1-2 s after the line before. */
function caseB(dir: string, minimal: boolean): TrimCase {
  const log = new CaseLog(minimal ? 'b2' : 'b', '2026-02-14T09:00:00.000Z');
  const missing = log.uuid(999);
  const q = log.user(null, 0, 'How is the cache invalidated?');
  let bridge: string;
  let resumes: string[];
  if (minimal) {
    log.assistant(q, 2, [{ type: 'text', text: 'Entries expire after ten minutes.' }]);
    bridge = log.stopHookSummary(missing, 3);
    resumes = ['How is the cache invalidated?', 'Entries expire after ten minutes.'];
  } else {
    const result = log.bash(q, 2, 'grep -rn expire src/cache', output('cache'));
    log.assistant(result, 5, [{ type: 'thinking', thinking: 'Expiry is time based.', signature: 'c2lnbmVk' }]);
    const hook = log.progress(missing, 7, 'Stop');
    bridge = log.stopHookSummary(hook, 8);
    resumes = ['How is the cache invalidated?'];
  }
  const next = log.user(bridge, 300, 'Make the expiry configurable.');
  log.assistant(next, 303, [{ type: 'text', text: 'The expiry now comes from the config file.' }]);
  return {
    id: minimal ? 'B2' : 'B',
    shape: minimal ? 'a stop_hook_summary naming a missing parent' : 'Stop hook progress and summary lines bridging a missing parent',
    path: log.write(dir, minimal ? 'case-b2.jsonl' : 'case-b.jsonl'),
    resumes: [...resumes, 'Make the expiry configurable.', 'The expiry now comes from the config file.'],
    notResumed: [],
  };
}

/** C: the newest segment (C2: a segment tied with a later one) lies before the last boundary in file order. */
function caseC(dir: string, tie: boolean): TrimCase {
  const log = new CaseLog(tie ? 'c2' : 'c', '2026-02-14T10:00:00.000Z');
  const first = log.compaction(tie ? 0 : 1800, 'the user asked for release notes.');
  const ask = log.user(first, (tie ? 0 : 1800) + 4, 'Draft the release notes.');
  const result = log.bash(ask, (tie ? 0 : 1800) + 6, 'git log --oneline', output('log'));
  log.assistant(result, (tie ? 0 : 1800) + 9, [{ type: 'text', text: 'The release notes are drafted from the log.' }]);
  const second = log.compaction(0, 'the user asked about the version scheme.');
  const other = log.user(second, 4, 'Which version scheme do we follow?');
  const listing = log.bash(other, 6, 'cat VERSIONING.md', output('versioning'));
  log.assistant(listing, 9, [{ type: 'text', text: 'We follow semantic versioning.' }]);
  return {
    id: tie ? 'C2' : 'C',
    shape: tie ? 'a tie for the newest entry, the first segment in file order' : 'the newest segment before the last boundary in file order',
    path: log.write(dir, tie ? 'case-c2.jsonl' : 'case-c.jsonl'),
    resumes: [
      'This session is being continued from a previous conversation that ran out of context. Summary: the user asked for release notes.',
      'Draft the release notes.',
      'The release notes are drafted from the log.',
    ],
    notResumed: ['Which version scheme do we follow?', 'We follow semantic versioning.'],
  };
}

/** D: a log over 5 MiB (`padBytes` of tool output) with a line holding two records glued together. */
function caseD(dir: string, padBytes = 5_600_000, name = 'case-d.jsonl'): TrimCase {
  const log = new CaseLog('d', '2026-02-14T11:00:00.000Z');
  const q = log.user(null, 0, 'What is in the fixtures folder?');
  const a = log.assistant(q, 2, [{ type: 'text', text: 'Two JSON files and a README.' }]);
  log.raw(`{"type":"summary","summary":"fixtures","leafUuid":"${a}"}{"type":"summary","summary":"again","leafUuid":"${a}"}`);
  const next = log.user(a, 10, 'Dump the test log.');
  const line = 'a line of the test log, repeated to make this session larger than five mebibytes\n';
  const result = log.bash(next, 12, 'cat test.log', line.repeat(Math.ceil(padBytes / line.length)));
  log.assistant(result, 15, [{ type: 'text', text: 'The test log is dumped above.' }]);
  const big = padBytes > 5 * 1024 * 1024;
  const later = ['Dump the test log.', 'The test log is dumped above.'];
  return {
    id: 'D',
    shape: big ? 'over 5 MiB with a line that is not one JSON record' : 'the same shape under 5 MiB',
    path: log.write(dir, name),
    resumes: ['What is in the fixtures folder?', 'Two JSON files and a README.', ...(big ? [] : later)],
    notResumed: big ? later : [],
  };
}

/** The D shape under 5 MiB: Claude Code reads it whole, skipping the glued line. */
export function smallCaseD(dir: string): TrimCase {
  return caseD(dir, 200_000, 'case-d-small.jsonl');
}

/** Writes every case into `dir`. */
export function writeTrimCases(dir: string): TrimCase[] {
  return [caseA(dir), caseB(dir, false), caseB(dir, true), caseC(dir, false), caseC(dir, true), caseD(dir)];
}
