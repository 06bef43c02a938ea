// `npm run bench -- analyze <dir|files...> [--jobs N]`: end-to-end throughput of `cmv analyze`
// on the built code (../dist): finding the files, starting the worker threads (each loads the
// tokenizer), reading, counting, trimming in memory, replaying and aggregating. One cold run, as a
// user gets it. Peak RSS is the whole process, worker threads included.
//
// Because the machine may be shared, the run also times a floor in this thread: reading every file
// and JSON.parse of every line (before and after the analysis; the faster is kept), and prints the
// analysis's wall time as a ratio of it, which load moves far less than MB/s.
//
// Also runs standalone: node --expose-gc bench/analyze.js <dir|files...> [--jobs N]

import './tune.js';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { readFileSync, statSync } from 'node:fs';
import { analysePaths } from '../dist/analyze/analysis.js';
import { builtinModels } from '../dist/cost/models.js';

const MB = 1024 * 1024;

function parseArgs(args) {
  const paths = [];
  let jobs;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--jobs' || args[i] === '-j') jobs = Number(args[++i]);
    else paths.push(args[i]);
  }
  return { paths, jobs };
}

function fileSize(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Seconds to read each file and JSON.parse every line of it, in this thread. */
function parseFloor(files) {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let records = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const line of text.split('\n')) {
      if (line.length === 0) continue;
      try {
        JSON.parse(line);
        records++;
      } catch {
        // a malformed line costs its failed parse, as it does cmv
      }
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, records };
}

function peakRssMb() {
  return process.resourceUsage().maxRSS / 1024; // KB -> MB
}

export async function benchAnalyze(args) {
  const { paths, jobs } = parseArgs(args);
  if (paths.length === 0) throw new Error('usage: npm run bench -- analyze <dir|files...> [--jobs N]');
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  let firstDone;
  const report = await analysePaths(paths, { jobs, models: [...builtinModels()], onProgress: () => (firstDone ??= performance.now()) });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const a = report.aggregate;
  const sizes = report.sessions.map((s) => s.bytes).concat(report.failed.map((f) => fileSize(f.path)));
  const bytes = sizes.reduce((n, b) => n + b, 0);
  const largest = Math.max(0, ...sizes);
  const files = report.sessions.map((s) => s.path).concat(report.failed.map((f) => f.path));
  parseFloor(files); // warm: the analysis ran cold, but its files are in the page cache now
  const floors = [parseFloor(files), parseFloor(files)];
  const floor = Math.min(...floors.map((f) => f.seconds));
  const floorCpu = Math.min(...floors.map((f) => f.cpuSeconds));

  console.log(
    `files            ${a.files + a.failed + a.skipped} (${a.sessions} sessions, ${a.subagents} subagents, ${a.failed} failed, ${a.skipped} skipped), largest ${(largest / MB).toFixed(1)} MB`,
  );
  console.log(`input            ${(bytes / MB).toFixed(2)} MB`);
  console.log(`threads          ${report.workers ? `${report.workers + 1}: this one and ${report.workers} worker${report.workers > 1 ? 's' : ''}` : '1 (this one)'}`);
  console.log(`wall             ${seconds.toFixed(2)} s (first result after ${(((firstDone ?? started) - started) / 1000).toFixed(2)} s)`);
  console.log(`throughput       ${(bytes / MB / seconds).toFixed(1)} MB/s end to end`);
  console.log(`floor            ${floor.toFixed(2)} s to read and JSON.parse every line in one thread (${(bytes / MB / floor).toFixed(1)} MB/s)`);
  console.log(`ratio            ${(seconds / floor).toFixed(2)}x the floor's time (wall, end to end; 50 MB/s is ${(bytes / MB / 50 / floor).toFixed(2)}x at this floor)`);
  console.log(`cpu              ${cpuSeconds.toFixed(2)} s (${(bytes / MB / cpuSeconds).toFixed(1)} MB per cpu-second; all threads), ${(cpuSeconds / floorCpu).toFixed(2)}x the floor's cpu`);
  console.log(`peak RSS         ${peakRssMb().toFixed(0)} MB`);
  console.log(`tokens           ${a.tokens} of context; mean reduction ${(a.reduction.mean * 100).toFixed(1)}%; logged cost $${a.cost.toFixed(2)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchAnalyze(process.argv.slice(2));
