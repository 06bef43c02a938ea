// Throughput benchmarks of the built cmv (../dist): `npm run build` first. One subcommand per
// pipeline stage; add a stage by adding an entry to COMMANDS.
//
//   npm run bench -- read <files...>     reading + modelling (openSession) and token counting
//   npm run bench -- trim [files...]     the whole cmv trim process vs a JSON.parse+stringify floor (default: ~50 MB logs stitched from the corpus; bench/trim.js), then the PreCompact hook on 50 MB, then the reduction below
//   npm run bench -- trim --reduction [--client 2.1.100] [--breakdown] [--only REGEX]
//                                        sent tokens removed in the real client's request, files absent/present, beside the lossless limit, on the tool-heavy corpus logs
//   npm run bench -- hook [file]         the PreCompact hook: snapshot and in-place trim of a ~50 MB session (bench/hook.js)
//   npm run bench -- graph [dir...]      graph and resume blocks, memorybench F1 against <name>.truth.json (bench/graph.js)
//   npm run bench -- store [sessions...] snapshot store: storage of growing snapshots, 50 MB snapshot/branch times (bench/store.js)
//   npm run bench -- fuzz [cases]        100,000 mutated real inputs through stats/trim/verify: crashes, hangs, lines and texts lost (bench/fuzz.js)
//   npm run bench -- redact [--show] [dirs...]  precision of secret redaction on real logs, against bench/redact-labels.json (bench/redact.js)
//
// Figures are medians over repeated runs (each file at least MIN_RUNS times and MIN_SECONDS
// long); token counting is timed once per file, cold, since its memo would flatter a rerun.

import './tune.js';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSession } from '../dist/session/session.js';
import { tokenBreakdown } from '../dist/tokens/breakdown.js';
import { benchTrim } from './trim.js';
import { benchHook } from './hook.js';
import { countTokens } from '../dist/tokens/counter.js';
import { benchAnalyze } from './analyze.js';
import benchGraph from './graph.js';
import benchStore from './store.js';
import benchFuzz from './fuzz.js';
import benchRedact from './redact.js';

const MIN_RUNS = 3;
const MIN_SECONDS = 1;
const MB = 1024 * 1024;

function gc() {
  globalThis.gc?.();
}

function peakRssMb() {
  return process.resourceUsage().maxRSS / 1024; // maxRSS is in KB
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs `fn` until both MIN_RUNS and MIN_SECONDS are reached; returns the median and best seconds.
 * No forced GC between runs: a full GC lets V8 drop optimised code that refers to the previous
 * run's buffers, so every run would measure freshly deoptimised code (3x slower on small files).
 */
async function timeRepeated(fn) {
  const times = [];
  const started = performance.now();
  gc();
  while (times.length < MIN_RUNS || performance.now() - started < MIN_SECONDS * 1000) {
    const t = performance.now();
    await fn();
    times.push((performance.now() - t) / 1000);
  }
  return { median: median(times), best: Math.min(...times) };
}

function pad(text, width, right = false) {
  const s = String(text);
  return right ? s.padStart(width) : s.padEnd(width);
}

function row(cells) {
  const widths = [44, 7, 10, 10, 12, 10, 12];
  return cells.map((c, i) => pad(c, widths[i], i > 0)).join(' ');
}

async function benchRead(files) {
  if (files.length === 0) throw new Error('usage: npm run bench -- read <files...>');
  countTokens('load the tokenizer before timing'); // its rank table takes most of a second to build
  if (!globalThis.gc) console.error('(run with --expose-gc, as `npm run bench` does, for steadier figures)');

  console.log(row(['file', 'MB', 'read MB/s', '(best)', 'tokens MB/s', 'tokens', 'peak RSS MB']));
  let totalBytes = 0;
  let totalReadSeconds = 0;
  let totalBestSeconds = 0;
  let totalTokenSeconds = 0;
  let totalTokens = 0;
  for (const file of files) {
    const bytes = statSync(file).size;
    const read = await timeRepeated(() => openSession(file));
    const session = await openSession(file);
    gc();
    const t = performance.now();
    const breakdown = tokenBreakdown(session);
    const tokenSeconds = (performance.now() - t) / 1000;

    totalBytes += bytes;
    totalReadSeconds += read.median;
    totalBestSeconds += read.best;
    totalTokenSeconds += tokenSeconds;
    totalTokens += breakdown.total;
    console.log(
      row([
        basename(file).slice(0, 44),
        (bytes / MB).toFixed(2),
        (bytes / MB / read.median).toFixed(1),
        (bytes / MB / read.best).toFixed(1),
        (bytes / MB / tokenSeconds).toFixed(1),
        breakdown.total,
        peakRssMb().toFixed(0),
      ]),
    );
  }
  console.log(
    row([
      `total (${files.length} file${files.length === 1 ? '' : 's'})`,
      (totalBytes / MB).toFixed(2),
      (totalBytes / MB / totalReadSeconds).toFixed(1),
      (totalBytes / MB / totalBestSeconds).toFixed(1),
      (totalBytes / MB / totalTokenSeconds).toFixed(1),
      totalTokens,
      peakRssMb().toFixed(0),
    ]),
  );
  console.log('read = openSession (read, parse, model), median and best run; tokens = tokenBreakdown of the messages sent');
  console.log('on resume, one cold run, per MB of file (texts seen in earlier files are memoised); peak RSS of the process so far');
}

/** Subcommands: name -> (args) => Promise<void>. Other stages (trim, graph) go here. */
const COMMANDS = {
  read: benchRead,
  trim: benchTrim,
  hook: benchHook,
  analyze: benchAnalyze,
  graph: benchGraph,
  store: benchStore,
  fuzz: benchFuzz,
  redact: benchRedact,
};

const [name, ...args] = process.argv.slice(2);
const command = COMMANDS[name];
if (!command) {
  console.error(`usage: npm run bench -- <${Object.keys(COMMANDS).join('|')}> <files...>`);
  process.exit(2);
}
await command(args);
