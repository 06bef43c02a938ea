// The PreCompact hook on a ~50 MB session (`npm run bench -- trim`, or `npm run bench -- hook [file]`):
// the whole `cmv hook run pre-compact` process (snapshot, then the in-place trim), and its two
// steps timed apart in this process, wall and CPU seconds. Two moments of a long session:
//   first: the first compaction cmv sees (nothing snapshotted or trimmed before);
//   later: the next compaction, after the hook ran at the previous one and the session grew since
//          (what before the previous boundary was trimmed then; the store holds its snapshot).
// The default session is stitched from every main log of ../shared/corpus (bench/stitch.js
// --parsed-only: a live session holds no line that is not one JSON record).

import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'claude-code');
const MB = 1024 * 1024;
const RUNS = 3;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function stitchedHookLog() {
  const out = join(tmpdir(), 'cmv-bench-hook-50.jsonl');
  if (existsSync(out)) return out;
  if (!existsSync(CORPUS)) throw new Error('usage: npm run bench -- hook <file> (or put the corpus at ../shared/corpus)');
  const sources = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.jsonl') && !f.includes('agent-'))
    .map((f) => join(CORPUS, f));
  const made = spawnSync(process.execPath, [join(ROOT, 'bench', 'stitch.js'), '--parsed-only', out, '50', ...sources], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  return out;
}

/** Byte offsets of the lines that are compact_boundary records. */
function boundaryOffsets(data) {
  const offsets = [];
  let start = 0;
  while (start < data.length) {
    let end = data.indexOf(10, start);
    if (end < 0) end = data.length;
    const line = data.subarray(start, end);
    if (line.includes('"compact_boundary"')) {
      try {
        const record = JSON.parse(line.toString('utf8'));
        if (record.type === 'system' && record.subtype === 'compact_boundary') offsets.push(start);
      } catch {
        // not a record
      }
    }
    start = end + 1;
  }
  return offsets;
}

const CPU_HOOK = `
process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('BENCH ' + JSON.stringify({ cpu: (u.user + u.system) / 1e6 }) + '\\n'); });
`;

/** A scratch HOME with the session installed as Claude Code keeps it, and a snapshot store. */
function scratch(work, name) {
  const root = join(work, name);
  const env = { ...process.env, HOME: root, CMV_HOME: join(root, 'cmv'), CLAUDE_CONFIG_DIR: join(root, 'claude') };
  const dir = join(env.CLAUDE_CONFIG_DIR, 'projects', '-tmp-bench-hook');
  mkdirSync(dir, { recursive: true });
  return { env, log: join(dir, 'b0b0b0b0-0000-4000-8000-000000000050.jsonl') };
}

/** The hook as Claude Code starts it: a process reading the event on stdin. */
function runHookProcess(place, cpuHook) {
  const started = performance.now();
  const input = JSON.stringify({ session_id: 'b0b0b0b0-0000-4000-8000-000000000050', transcript_path: place.log, hook_event_name: 'PreCompact', trigger: 'auto' });
  const child = spawnSync(process.execPath, ['--import', pathToFileURL(cpuHook).href, join(ROOT, 'bin', 'cmv.js'), 'hook', 'run', 'pre-compact'], { input, env: place.env, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (child.status !== 0) throw new Error(`cmv hook run exited ${child.status}: ${child.stderr}`);
  const report = /BENCH (.*)/.exec(child.stderr);
  return { seconds, cpu: report ? JSON.parse(report[1]).cpu : NaN, stdout: child.stdout.trim() };
}

async function timed(fn) {
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  const cpu = process.cpuUsage(cpu0);
  return { seconds: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6, value };
}

async function steps(place, file, dist) {
  process.env.CMV_HOME = place.env.CMV_HOME;
  const store = await dist.openStore(place.env);
  const snapshot = await timed(() => dist.takeSnapshot(store, place.log, { message: 'bench', tags: ['pre-compact'] }));
  const trim = await timed(() => dist.trimToDestination(place.log, { keepHistory: true, historyAsIs: true }, { kind: 'in-place' }));
  return { snapshot, trim };
}

/** Prepares `place` as the session stood at `moment`. */
async function prepare(place, data, moment, dist) {
  const boundaries = boundaryOffsets(data);
  if (moment === 'first' || boundaries.length < 2) {
    writeFileSync(place.log, data);
    return;
  }
  // The hook ran when the previous compaction began (before its boundary was written)...
  const previous = boundaries[boundaries.length - 1];
  writeFileSync(place.log, data.subarray(0, previous));
  await steps(place, place.log, dist);
  // ...and the session went on: its boundary and everything since were appended.
  appendFileSync(place.log, data.subarray(previous));
}

export async function benchHook(files = []) {
  const file = files[0] ?? stitchedHookLog();
  const data = readFileSync(file);
  const dist = {
    ...(await import('../dist/store/store.js')),
    ...(await import('../dist/store/snapshot.js')),
    ...(await import('../dist/trim/apply.js')),
  };
  console.log(`PreCompact hook on ${file} (${(data.length / MB).toFixed(1)} MB; node ${process.version}, load average ${loadavg()[0].toFixed(1)}); medians of ${RUNS} fresh runs, wall s (CPU s)`);
  const work = mkdtempSync(join(tmpdir(), 'cmv-bench-hook-'));
  const cpuHook = join(work, 'cpu.mjs');
  writeFileSync(cpuHook, CPU_HOOK);
  try {
    for (const moment of ['first', 'later']) {
      const whole = [];
      const parts = [];
      for (let run = 0; run < RUNS; run++) {
        const a = scratch(work, `${moment}-process-${run}`);
        await prepare(a, data, moment, dist);
        whole.push(runHookProcess(a, cpuHook));
        const b = scratch(work, `${moment}-steps-${run}`);
        await prepare(b, data, moment, dist);
        parts.push(await steps(b, b.log, dist));
      }
      const last = parts[parts.length - 1];
      const f = (xs) => `${median(xs.map((x) => x.seconds)).toFixed(2)} s (${median(xs.map((x) => x.cpu)).toFixed(2)} CPU)`;
      console.log(`  ${moment}:`);
      console.log(`    whole hook process (cmv hook run pre-compact): ${f(whole)}   [target <= 1.5 s]; it said: ${whole[0].stdout || '(nothing)'}`);
      const snap = last.snapshot.value;
      console.log(`    snapshot: ${f(parts.map((p) => p.snapshot))}, ${snap.growth}, ${(snap.newBytes / MB).toFixed(1)} MB new of ${(snap.bytes / MB).toFixed(1)} MB, ${(snap.modelledBytes / MB).toFixed(1)} MB modelled`);
      const r = last.trim.value.result;
      console.log(`    in-place trim: ${f(parts.map((p) => p.trim))}   [target <= 1 s]; ${(r.input.bytes / MB).toFixed(1)} -> ${(r.output.bytes / MB).toFixed(1)} MB, tokens sent ${r.input.tokens} -> ${r.output.tokens}, verify ${r.verify.ok ? 'ok' : 'FAILED'}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
