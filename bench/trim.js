// `npm run bench -- trim [file...]`: the whole `cmv trim` process against a floor measured in the
// same run: a process that reads the file, JSON.parses every line and JSON.stringifies it back
// to a new file. Both run as child processes, three times each; medians and peak RSS are printed.
// Then (default run, or alone with `--reduction`) the sent-token reduction of the trim measured in
// the real client's request on the tool-heavy corpus logs, beside the lossless limit
// (bench/trim-reduction.run.ts, run through vitest): `--client 2.1.100` (default 2.1.332),
// `--breakdown` (where the trimmed request's tokens go), `--only REGEX` (log names), `--threshold
// CHARS` (the trim's threshold, default its own).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchHook } from './hook.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 3;
const MB = 1024 * 1024;

const FLOOR_SCRIPT = `
import { readFileSync, writeFileSync } from 'node:fs';
const [input, output] = process.argv.slice(2);
const out = [];
for (const line of readFileSync(input, 'utf8').split('\\n')) {
  if (line === '') continue;
  try { out.push(JSON.stringify(JSON.parse(line))); } catch { out.push(line); }
}
writeFileSync(output, out.join('\\n') + '\\n');
process.stderr.write('BENCH ' + JSON.stringify({ maxRssMb: process.resourceUsage().maxRSS / 1024 }) + '\\n');
`;

// Loaded with --import into the real `cmv` process (bin/cmv.js): reports its peak memory on exit.
const RSS_HOOK = `
process.on('exit', () => process.stderr.write('BENCH ' + JSON.stringify({ maxRssMb: process.resourceUsage().maxRSS / 1024 }) + '\\n'));
`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function timed(args) {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = (performance.now() - started) / 1000;
  if (child.status !== 0) throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  const report = /BENCH (.*)/.exec(child.stderr);
  return { seconds, maxRssMb: report ? JSON.parse(report[1]).maxRssMb : NaN, stdout: child.stdout };
}

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'claude-code');
const NO_COMPACTION = /ada8171575|fe5e1c67-v1.0.98-long|26dcd5518f|91b42542f2/;

/** Stitches corpus logs into `<name>-<mb>.jsonl`, a session of about `mb` MB, with bench/stitch.js (once; kept in the temp folder). */
function stitched(name, pick, mb = 50) {
  const out = join(tmpdir(), `${name}-${mb}.jsonl`);
  if (existsSync(out)) return out;
  const sources = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.jsonl') && !f.includes('agent-') && pick(f))
    .map((f) => join(CORPUS, f));
  const made = spawnSync(process.execPath, [join(ROOT, 'bench', 'stitch.js'), out, String(mb), ...sources], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  return out;
}

/**
 * Without files: two ~50 MB sessions stitched from ../shared/corpus. One from every main log, so
 * it holds compactions like any real log that size (a default trim drops what precedes the last
 * one); one from logs without compactions, where every line is kept and stripped (the worst case).
 */
function defaultFiles() {
  if (!existsSync(CORPUS)) throw new Error('usage: npm run bench -- trim <file...> (or put the corpus at ../shared/corpus)');
  return [stitched('cmv-bench-trim-all', () => true), stitched('cmv-bench-trim-no-compaction', (f) => NO_COMPACTION.test(f))];
}

/** The whole `cmv trim` process on `file`, reporting its peak memory through `rssHook`. */
function trimArgs(file, work, rssHook) {
  return ['--import', pathToFileURL(rssHook).href, join(ROOT, 'bin', 'cmv.js'), 'trim', file, '-o', join(work, 'trimmed.jsonl'), '--force', '--json'];
}

/** The all-corpus stitch at several sizes: peak RSS of `cmv trim` as the log grows. */
const SCALING_MB = [12, 25, 50, 100, 200];

function memoryScaling(work, rssHook) {
  console.log('peak RSS of cmv trim as the log grows (all-corpus stitch; one run each):');
  const points = [];
  for (const mb of SCALING_MB) {
    const file = stitched('cmv-bench-trim-all', () => true, mb);
    const run = timed(trimArgs(file, work, rssHook));
    const lines = JSON.parse(run.stdout).input.lines;
    const point = { mb: statSync(file).size / MB, lines, rss: run.maxRssMb };
    points.push(point);
    console.log(`  ${point.mb.toFixed(0).padStart(4)} MB, ${String(lines).padStart(6)} lines: ${run.maxRssMb.toFixed(0)} MB peak RSS, ${run.seconds.toFixed(2)} s`);
  }
  const first = points[0];
  const last = points[points.length - 1];
  const perMb = (last.rss - first.rss) / (last.mb - first.mb);
  console.log(
    `  growth: ${(last.rss - first.rss).toFixed(0)} MB of RSS for ${(last.mb - first.mb).toFixed(0)} MB more log (${perMb.toFixed(2)} MB per MB; the lines before the last compaction are not indexed)`,
  );
}

/** The reduction measured in the real client (bench/trim-reduction.run.ts under vitest); throws when it fails. */
function benchReduction({ client, breakdown, only, threshold }) {
  const env = { ...process.env, CMV_BENCH_CLIENT: client };
  if (breakdown) env.CMV_BENCH_BREAKDOWN = '1';
  if (only) env.CMV_BENCH_ONLY = only;
  if (threshold) env.CMV_BENCH_THRESHOLD = threshold;
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '-c', join(ROOT, 'bench', 'reduction.vitest.config.ts'), '--silent=false', '--reporter=dot'], { cwd: ROOT, env, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`the reduction bench failed (exit ${run.status})`);
}

/** `--reduction`, `--client V`, `--breakdown`, `--only REGEX`, `--threshold CHARS` out of the arguments; the rest are files. */
function parseArgs(args) {
  const opts = { reduction: false, client: '2.1.332', breakdown: false, only: undefined, threshold: undefined };
  const files = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--reduction') opts.reduction = true;
    else if (arg === '--breakdown') opts.breakdown = true;
    else if (arg === '--client') opts.client = args[++i];
    else if (arg === '--only') opts.only = args[++i];
    else if (arg === '--threshold') opts.threshold = args[++i];
    else files.push(arg);
  }
  return { opts, files };
}

export async function benchTrim(args) {
  const { opts, files: named } = parseArgs(args);
  if (opts.reduction) return benchReduction(opts);
  let files = named;
  const scaling = files.length === 0;
  if (files.length === 0) files = defaultFiles();
  console.log(`cmv trim benchmark (node ${process.version}, load average ${loadavg()[0].toFixed(1)})`);
  const work = mkdtempSync(join(tmpdir(), 'cmv-bench-trim-'));
  try {
    const floorScript = join(work, 'floor.mjs');
    const rssHook = join(work, 'rss.mjs');
    writeFileSync(floorScript, FLOOR_SCRIPT);
    writeFileSync(rssHook, RSS_HOOK);
    for (const file of files) {
      const mb = statSync(file).size / MB;
      const floor = [];
      const trim = [];
      let report;
      for (let run = 0; run < RUNS; run++) {
        floor.push(timed([floorScript, file, join(work, 'floor.jsonl')]));
        const t = timed(trimArgs(file, work, rssHook));
        trim.push(t);
        report ??= JSON.parse(t.stdout);
      }
      const floorS = median(floor.map((r) => r.seconds));
      const trimS = median(trim.map((r) => r.seconds));
      console.log(`${file} (${mb.toFixed(1)} MB, ${report.input.lines} lines)`);
      console.log(`  floor (read + JSON.parse + JSON.stringify + write): ${floorS.toFixed(2)} s, peak RSS ${Math.max(...floor.map((r) => r.maxRssMb)).toFixed(0)} MB`);
      console.log(`  cmv trim (whole process):                          ${trimS.toFixed(2)} s, peak RSS ${Math.max(...trim.map((r) => r.maxRssMb)).toFixed(0)} MB`);
      console.log(`  ratio trim/floor: ${(trimS / floorS).toFixed(2)} (target <= 0.70); ${(mb / trimS).toFixed(1)} MB/s`);
      console.log(`  tokens ${report.input.tokens} -> ${report.output.tokens} (-${(report.reduction.tokens * 100).toFixed(1)}%), verify ${report.verify.ok ? 'ok' : 'FAILED'}`);
    }
    if (scaling) memoryScaling(work, rssHook);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  // The PreCompact hook's in-place trim (and its snapshot) on a 50 MB session.
  if (scaling) await benchHook();
  if (scaling) benchReduction(opts);
}
