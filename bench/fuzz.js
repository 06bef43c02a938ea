// `npm run bench -- fuzz [cases]`: mutated real logs through stats, trim and verify, in process
// (the core functions cmv's commands call), default 100,000 cases. Windows of consecutive lines
// from the corpora (../shared) or, without them, from sample-sessions/ get 1-3 lines mutated
// (bench/mutate.js) and sometimes a last line cut mid-write. Counted:
//   crashes     an exception that is not a CmvError with a user-facing code (exit 70 in the CLI)
//   hangs       a case that took longer than HANG_MS
//   lines lost  a line JSON.parse refuses, missing from the output of a trim that says ok
//   texts lost  a user or assistant text missing from the output of a trim that says ok
// With --keep-history the trim keeps lines before the last compaction (so every text must stay).

import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { openSession } from '../dist/session/session.js';
import { sessionStats } from '../dist/analyze/session-stats.js';
import { trimSession } from '../dist/trim/trim.js';
import { CmvError } from '../dist/errors.js';
import { countTokens } from '../dist/tokens/counter.js';
import { mutateLine, seededRandom } from './mutate.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HANG_MS = 10_000;

function jsonl(dir) {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => join(dir, f))
    : [];
}

function sourceLogs() {
  const shared = join(ROOT, '..', 'shared', 'corpus');
  const corpus = [...jsonl(join(shared, 'claude-code')), ...jsonl(join(shared, 'claude-code-recent'))];
  const files = corpus.length ? corpus : jsonl(join(ROOT, 'sample-sessions'));
  return {
    from: corpus.length ? 'corpora in ../shared' : 'sample-sessions/',
    // Lines up to 64 KB (nearly all): the few multi-MB image lines would make each case cost seconds.
    logs: files.map((f) =>
      readFileSync(f)
        .toString('latin1')
        .split('\n')
        .filter((l) => l.length > 0 && l.length <= 65536)
        .map((l) => Buffer.from(l, 'latin1')),
    ),
  };
}

function plain(bytes) {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Non-blank user and assistant texts of a record as JSON.parse reads it. */
function textsOf(record, into) {
  if (!record || typeof record !== 'object' || (record.type !== 'user' && record.type !== 'assistant')) return;
  const content = record.message && typeof record.message === 'object' ? record.message.content : undefined;
  if (typeof content === 'string') {
    if (content.trim()) into.add(content);
  } else if (Array.isArray(content)) {
    for (const block of content) if (block && block.type === 'text' && typeof block.text === 'string' && block.text.trim()) into.add(block.text);
  }
}

/** A user-facing refusal (bad input, IO, verify failed...) is an answer; anything else is a crash. */
function isCrash(error) {
  return !(error instanceof CmvError) || error.code === 'INTERNAL';
}

function makeCase(random, logs) {
  const log = logs[Math.floor(random() * logs.length)];
  const size = 1 + Math.floor(random() * 12);
  const start = Math.floor(random() * Math.max(1, log.length - size));
  const lines = log.slice(start, start + size);
  const mutations = 1 + Math.floor(random() * 3);
  const names = [];
  for (let m = 0; m < mutations && lines.length; m++) {
    const at = Math.floor(random() * lines.length);
    const { name, bytes } = mutateLine(random, lines[at]);
    // A mutation may add a newline (glue, flip): the file then has another line, as a real one would.
    lines[at] = bytes;
    names.push(name);
  }
  const cut = random() < 0.1; // a log cut mid-write: its last line partial, no final newline
  let data = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
  if (cut && data.length > 2) data = data.subarray(0, data.length - 1 - Math.floor(random() * Math.min(200, data.length - 1)));
  return { data, names: cut ? [...names, 'cut-write'] : names };
}

export default async function benchFuzz(args) {
  const keepHistory = args.includes('--keep-history');
  const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
  const { from, logs } = sourceLogs();
  if (logs.length === 0) throw new Error('no logs to mutate');
  countTokens('load the tokenizer before timing');
  const dir = mkdtempSync(join(tmpdir(), 'cmv-fuzz-'));
  const path = join(dir, 'session.jsonl');
  const random = seededRandom(2026);
  const found = { crashes: 0, hangs: 0, linesLost: 0, textsLost: 0, refused: 0, verifyFailed: 0, trimmedOk: 0 };
  const examples = [];
  const note = (kind, names, detail) => {
    if (examples.length < 12) examples.push(`${kind} [${names.join('+')}]: ${String(detail).slice(0, 200)}`);
  };
  const started = performance.now();
  let slowest = 0;
  try {
    for (let n = 0; n < count; n++) {
      const { data, names } = makeCase(random, logs);
      writeFileSync(path, data);
      const t = performance.now();
      try {
        const session = await openSession(path, { findSubagents: false });
        sessionStats(session);
      } catch (error) {
        if (isCrash(error)) {
          found.crashes++;
          note('stats crash', names, error?.stack ?? error);
        } else found.refused++;
      }
      try {
        const result = await trimSession(path, { keepHistory }, {});
        if (!result.verify.ok) found.verifyFailed++;
        else {
          found.trimmedOk++;
          const out = new Set(result.lines.map((l) => l.toString('latin1')));
          const outTexts = new Set();
          for (const line of result.lines) textsOf(plain(line), outTexts);
          const inLines = data.toString('latin1').split('\n');
          const last = inLines.length - 1;
          let lost = 0;
          let textLost = 0;
          const dropped = result.removed.linesBeforeBoundary > 0;
          inLines.forEach((text, i) => {
            if (!text.trim()) return;
            const record = plain(Buffer.from(text, 'latin1'));
            if (record === undefined) {
              // A partial last line is a write in progress; lines before a boundary go by design.
              if (!out.has(text) && !(i === last && !data.toString('latin1').endsWith('\n')) && !dropped) lost++;
            } else if (!dropped) {
              const texts = new Set();
              textsOf(record, texts);
              for (const t of texts) if (!outTexts.has(t)) textLost++;
            }
          });
          if (lost) {
            found.linesLost += lost;
            note('lines lost', names, `${lost} line(s)`);
          }
          if (textLost) {
            found.textsLost += textLost;
            note('texts lost', names, `${textLost} text(s)`);
          }
        }
      } catch (error) {
        if (isCrash(error)) {
          found.crashes++;
          note('trim crash', names, error?.stack ?? error);
        } else found.refused++;
      }
      const ms = performance.now() - t;
      slowest = Math.max(slowest, ms);
      if (ms > HANG_MS) {
        found.hangs++;
        note('hang', names, `${Math.round(ms)} ms`);
      }
      if ((n + 1) % 1000 === 0) {
        process.stderr.write(
          `  ${n + 1} cases, ${Math.round((performance.now() - started) / 1000)} s: crashes ${found.crashes}, hangs ${found.hangs}, lines lost ${found.linesLost}, texts lost ${found.textsLost}\n`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Tokenising 8 MB of unbroken text (no pre-token split point), against 8 MB of ordinary prose.
  const run = 'x'.repeat(8 * 1024 * 1024);
  let t = performance.now();
  countTokens(run);
  const runSeconds = (performance.now() - t) / 1000;
  const prose = 'The quick brown fox jumps over the lazy dog; then it rests. '.repeat(140_000).slice(0, run.length) + String(Math.random());
  t = performance.now();
  countTokens(prose);
  const proseSeconds = (performance.now() - t) / 1000;

  console.log(
    `fuzz: ${count} mutated inputs from ${from} (trim ${keepHistory ? 'keeping history' : 'as by default'}), ${Math.round((performance.now() - started) / 1000)} s, slowest case ${Math.round(slowest)} ms`,
  );
  console.log(`  crashes ${found.crashes}   hangs ${found.hangs}   lines lost ${found.linesLost}   texts lost ${found.textsLost}`);
  console.log(`  (trims verified ok ${found.trimmedOk}, refused by verify ${found.verifyFailed}, inputs refused with a clear error ${found.refused})`);
  console.log(`  8 MB unbroken run tokenised at ${(8 / runSeconds).toFixed(1)} MB/s; 8 MB prose at ${(8 / proseSeconds).toFixed(1)} MB/s (ratio ${(proseSeconds / runSeconds).toFixed(2)})`);
  for (const example of examples) console.log(`  ${example}`);
}
