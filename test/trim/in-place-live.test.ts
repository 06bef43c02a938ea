// In-place trims of a log another process appends to by path every 5 ms, as Claude Code does:
// `trim --in-place` (trimToDestination) and the hook (hookMain), 20 trials each. Every appended
// line must end in the final log once, and every parent it names must be there. The log ends
// with a thinking-only line the trim drops, and the writer chains to it, as a live client does.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trimToDestination } from '../../src/trim/apply.js';
import { trimSession } from '../../src/trim/trim.js';
import { hookMain } from '../../src/hooks/hook-main.js';
import { readTrimRecords } from '../../src/hooks/trim-journal.js';
import { restoreLog } from '../../src/trim/restore.js';
import { SessionBuilder, commandOutput, readOutput, removeWrittenSessions } from './session-builder.js';

const TRIALS = 20;
const saved = { CMV_HOME: process.env.CMV_HOME, CMV_CONFIG: process.env.CMV_CONFIG };
let scratch: string;

/** A small log whose bulk the trim stubs, ending with a thinking-only line (dropped by the trim). */
function liveLog(): { text: string; tip: string; sessionId: string } {
  const b = new SessionBuilder();
  b.bookkeeping('fix the build');
  b.user('The build fails, can you look?');
  b.toolCall('Bash', { command: 'npm run build' }, commandOutput(400), { say: 'Running the build.' });
  b.toolCall('Read', { file_path: '/tmp/cmv-rules/app/src/big.ts' }, readOutput(300));
  b.assistant([{ type: 'text', text: 'The build fails on line 12 of big.ts.' }]);
  b.user('Please fix it.');
  b.toolCall('Bash', { command: 'npm test' }, commandOutput(300));
  b.assistant([{ type: 'thinking', thinking: 'Now I should patch the file. '.repeat(40), signature: 'sig'.repeat(30) }]);
  return { text: b.text(), tip: b.tip!, sessionId: b.sessionId };
}

const WRITER = `
const fs = require('fs');
const [path, first, sessionId, prefix] = process.argv.slice(1);
let parent = first, i = 0;
const timer = setInterval(() => {
  const uuid = prefix + '-' + i;
  const user = i % 2 === 0;
  const line = { parentUuid: parent, isSidechain: false, type: user ? 'user' : 'assistant', uuid, timestamp: new Date().toISOString(), sessionId, cwd: '/tmp/cmv-rules/app', version: '2.1.100',
    message: user ? { role: 'user', content: 'live prompt ' + i } : { id: 'msg_live_' + i, type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'live reply ' + i }], usage: { input_tokens: 1, output_tokens: 1 } } };
  fs.appendFileSync(path, JSON.stringify(line) + '\\n');
  parent = uuid;
  i++;
}, 5);
process.stdout.write('ready\\n');
process.stdin.on('data', () => { clearInterval(timer); process.stdout.write('wrote ' + i + '\\n'); process.exit(0); });
`;

interface Writer {
  child: ChildProcess;
  prefix: string;
  stop(): Promise<number>;
}

async function startWriter(path: string, first: string, sessionId: string, trial: number): Promise<Writer> {
  const prefix = `live-${trial}`;
  const child = spawn(process.execPath, ['-e', WRITER, path, first, sessionId, prefix], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const lines: ((text: string) => void)[] = [];
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    for (const check of lines) check(out);
  });
  await new Promise<void>((resolve) => lines.push((text) => text.includes('ready') && resolve()));
  // Let it write a few lines before the trim starts.
  await new Promise((r) => setTimeout(r, 20));
  return {
    child,
    prefix,
    stop: () =>
      new Promise<number>((resolve) => {
        lines.push((text) => {
          const m = /wrote (\d+)/.exec(text);
          if (m) resolve(Number(m[1]));
        });
        child.stdin!.write('stop\n');
      }),
  };
}

/** Every line the writer wrote is in the log once, and the chain from its last line reaches a root. */
function assertNothingLost(path: string, prefix: string, written: number): void {
  const records = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { uuid?: string; parentUuid?: string | null });
  const byUuid = new Map(records.filter((r) => r.uuid).map((r) => [r.uuid!, r]));
  const live = records.filter((r) => r.uuid?.startsWith(`${prefix}-`)).map((r) => r.uuid);
  const missing = Array.from({ length: written }, (_, i) => `${prefix}-${i}`).filter((u) => !byUuid.has(u));
  expect(missing, `${missing.length} of ${written} appended lines lost`).toEqual([]);
  expect(live.length, 'an appended line appears twice').toBe(written);
  // Resume walks from the newest line to the root: no parent on the way may be missing.
  let at: string | null | undefined = `${prefix}-${written - 1}`;
  let steps = 0;
  while (typeof at === 'string') {
    const record = byUuid.get(at);
    expect(record, `parent ${at} is missing (chain cut after ${steps} steps)`).toBeDefined();
    at = record!.parentUuid;
    steps++;
  }
  expect(steps).toBeGreaterThan(written);
}

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cmv-live-'));
  process.env.CMV_HOME = join(scratch, 'data');
  process.env.CMV_CONFIG = join(scratch, 'config.json');
  writeFileSync(process.env.CMV_CONFIG, JSON.stringify({ 'hook.snapshot': false, 'hook.growthBytes': 1024 }));
});

afterEach(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(scratch, { recursive: true, force: true });
});

afterAll(() => removeWrittenSessions());

function sink(): Writable {
  return new Writable({
    write(_c, _e, done) {
      done();
    },
  });
}

describe('in-place trim while Claude Code appends', () => {
  it("drops the log's last (thinking-only) line when nothing appends, so the live test below can fail", async () => {
    const { text, tip } = liveLog();
    const path = join(scratch, 'plain.jsonl');
    writeFileSync(path, text);
    const result = await trimSession(path, { keepHistory: true });
    expect(result.trimmed.conversation.byUuid.has(tip)).toBe(false);
    expect(result.output.bytes).toBeLessThan(result.input.bytes);
  });

  it(`trim --in-place loses no appended line (${TRIALS} trials, a writer every 5 ms)`, async () => {
    let carried = 0;
    let appended = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const { text, tip, sessionId } = liveLog();
      const path = join(scratch, `${sessionId}.jsonl`);
      writeFileSync(path, text);
      const writer = await startWriter(path, tip, sessionId, trial);
      let applied;
      let written: number;
      try {
        applied = await trimToDestination(path, {}, { kind: 'in-place' });
        // Lines after the rename land in the new file.
        await new Promise((r) => setTimeout(r, 15));
      } finally {
        written = await writer.stop();
      }
      appended += written;
      expect(applied.backup).toBeDefined();
      carried += applied.carried!.lines;
      assertNothingLost(path, writer.prefix, written);
      expect(readdirSync(scratch).filter((n) => n.includes('.tmp'))).toEqual([]);
      // The backup is the log as it began: complete lines, the original first.
      expect(readFileSync(applied.backup!, 'utf8').startsWith(text)).toBe(true);
    }
    // The writer did write during the trims (the test exercises the carry).
    expect(carried).toBeGreaterThan(0);
    console.log(`trim --in-place: ${appended} lines appended in ${TRIALS} trials, ${carried} carried across a trim, 0 lost`);
  }, 180_000);

  it('restore loses no appended line either (5 trials, a writer every 5 ms)', async () => {
    let carried = 0;
    for (let trial = 0; trial < 5; trial++) {
      const { text, tip, sessionId } = liveLog();
      const path = join(scratch, `${sessionId}.jsonl`);
      writeFileSync(path, text);
      await trimToDestination(path, {}, { kind: 'in-place' });
      const writer = await startWriter(path, tip, sessionId, trial);
      let written: number;
      let outcome;
      try {
        outcome = await restoreLog(path);
        await new Promise((r) => setTimeout(r, 15));
      } finally {
        written = await writer.stop();
      }
      expect(outcome.status).toBe('restored');
      if (outcome.status === 'restored') carried += outcome.carried.lines;
      expect(readFileSync(path, 'utf8').startsWith(text)).toBe(true);
      assertNothingLost(path, writer.prefix, written);
    }
    expect(carried).toBeGreaterThan(0);
  }, 120_000);

  it(`the hook loses no appended line (${TRIALS} trials, a writer every 5 ms)`, async () => {
    let carried = 0;
    let appended = 0;
    let trims = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const { text, tip, sessionId } = liveLog();
      const path = join(scratch, `${sessionId}.jsonl`);
      writeFileSync(path, text);
      const writer = await startWriter(path, tip, sessionId, trial);
      let written: number;
      try {
        const kind = trial % 2 === 0 ? 'pre-compact' : 'size-guard';
        const event = { transcript_path: path, session_id: sessionId, hook_event_name: kind === 'pre-compact' ? 'PreCompact' : 'PostToolUse' };
        expect(await hookMain(kind, { stdin: Readable.from([Buffer.from(JSON.stringify(event))]), stdout: sink(), timeoutMs: 60_000 })).toBe(0);
        await new Promise((r) => setTimeout(r, 15));
      } finally {
        written = await writer.stop();
      }
      appended += written;
      assertNothingLost(path, writer.prefix, written);
      expect(readdirSync(scratch).filter((n) => n.includes('.tmp'))).toEqual([]);
    }
    const records = await readTrimRecords();
    trims = records.length;
    for (const dir of readdirSync(join(scratch, 'data', 'backups'))) {
      for (const name of readdirSync(join(scratch, 'data', 'backups', dir)).filter((n) => n.endsWith('.json'))) {
        carried += (JSON.parse(readFileSync(join(scratch, 'data', 'backups', dir, name), 'utf8')) as { carried?: { lines: number } }).carried?.lines ?? 0;
      }
    }
    expect(trims).toBe(TRIALS);
    expect(carried).toBeGreaterThan(0);
    console.log(`hook: ${appended} lines appended in ${TRIALS} trials, ${carried} carried across a trim, 0 lost`);
  }, 180_000);
});
