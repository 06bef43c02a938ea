// The PreCompact hook on a ~50 MB session (`npm run bench -- trim`, or `npm run bench -- hook [file]`):
// the whole `cmv hook run pre-compact` process (the snapshot, and the in-place trim once the
// snapshot holds the log, both at once), and its two steps timed apart in this process (the trim
// as the hook runs it; at the first compaction also `trim --in-place` alone, which reads a long
// history in a worker thread), wall and CPU seconds (worker threads' CPU included). Two moments of a long session:
//   first: the first compaction cmv sees (nothing of this session snapshotted or trimmed before;
//          the store exists, as `cmv hook install` makes it);
//   later: the next compaction, after the hook ran at the previous one and the session grew since
//          (what before the previous boundary was trimmed then; the store holds its snapshot).
// The default session is stitched from every main log of ../shared/corpus (bench/stitch.js
// --parsed-only: a live session holds no line that is not one JSON record).
// The machine is shared, so each figure is given as wall seconds and CPU seconds (this process's
// and its children's: git), with the load average, and as a ratio to a floor measured in the same
// run on the same file: read it and JSON.parse every line (CPU over CPU). Targets are wall time
// (what Claude Code waits) on an idle machine; CPU lets a run under load be read.

import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** CPU seconds of the processes this one has waited for (git, a hook process and its git), from /proc. */
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in USER_HZ (100 on Linux)
  } catch {
    return NaN;
  }
}

/** The floor: read the file and JSON.parse every line, in this process. */
function floor(file) {
  return timedSync(() => {
    let records = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        JSON.parse(line);
        records++;
      } catch {
        // not a record
      }
    }
    return records;
  });
}

function timedSync(fn) {
  const cpu0 = process.cpuUsage();
  const children0 = childrenCpu();
  const started = performance.now();
  const value = fn();
  const cpu = process.cpuUsage(cpu0);
  return { seconds: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6 + (childrenCpu() - children0), value };
}

/** A scratch HOME with the session installed as Claude Code keeps it, and a snapshot store. */
function scratch(work, name) {
  const root = join(work, name);
  const env = { ...process.env, HOME: root, CMV_HOME: join(root, 'cmv'), CLAUDE_CONFIG_DIR: join(root, 'claude') };
  const dir = join(env.CLAUDE_CONFIG_DIR, 'projects', '-tmp-bench-hook');
  mkdirSync(dir, { recursive: true });
  return { env, log: join(dir, 'b0b0b0b0-0000-4000-8000-000000000050.jsonl') };
}

/** The hook as Claude Code starts it: a process reading the event on stdin; its CPU is its own and its git's. */
function runHookProcess(place) {
  const input = JSON.stringify({ session_id: 'b0b0b0b0-0000-4000-8000-000000000050', transcript_path: place.log, hook_event_name: 'PreCompact', trigger: 'auto' });
  const { seconds, cpu, value: child } = timedSync(() => spawnSync(process.execPath, [join(ROOT, 'bin', 'cmv.js'), 'hook', 'run', 'pre-compact'], { input, env: place.env, encoding: 'utf8' }));
  if (child.status !== 0) throw new Error(`cmv hook run exited ${child.status}: ${child.stderr}`);
  return { seconds, cpu, stdout: child.stdout.trim() };
}

/** Wall and CPU seconds of `fn`: this process's CPU and that of the children it waited for meanwhile (git). */
async function timed(fn) {
  const cpu0 = process.cpuUsage();
  const children0 = childrenCpu();
  const started = performance.now();
  const value = await fn();
  const cpu = process.cpuUsage(cpu0);
  return { seconds: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6 + (childrenCpu() - children0), value };
}

async function steps(place, file, dist) {
  process.env.CMV_HOME = place.env.CMV_HOME;
  const store = await dist.openStore(place.env);
  // As the hook trims beside its snapshot: the history's chain handed by the snapshot when it read
  // the history anyway (a first snapshot of a long log), else read in this thread (without a kept chain).
  let handChain;
  const handed = new Promise((resolve) => (handChain = resolve));
  const snapshot = await timed(() => dist.takeSnapshot(store, place.log, { message: 'bench', tags: ['pre-compact'], handChain }));
  const trim = await timed(() => dist.trimInPlace(place.log, { options: { keepHistory: true, historyAsIs: true }, by: 'pre-compact', lockWaitMs: 5_000, historyWorker: false, handedHistory: handed }));
  return { snapshot, trim };
}

/** `cmv trim --in-place --keep-history` alone: a long history without a kept chain is read in a worker thread. */
async function cliTrim(place, dist) {
  process.env.CMV_HOME = place.env.CMV_HOME;
  return timed(() => dist.trimToDestination(place.log, { keepHistory: true, historyAsIs: true }, { kind: 'in-place' }));
}

/**
 * The log on disk as a session's is when it compacts: written over hours, so the kernel has long
 * written it back, not 50 MB of it still waiting in the page cache for the hook's syncs to queue behind.
 */
function settled(path) {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Prepares `place` as the session stood at `moment`, with the hook installed (which makes the snapshot store). */
async function prepare(place, data, moment, dist) {
  await dist.openStore(place.env);
  const boundaries = boundaryOffsets(data);
  if (moment === 'first' || boundaries.length < 2) {
    writeFileSync(place.log, data);
    settled(place.log);
    return;
  }
  // The hook ran when the previous compaction began (before its boundary was written)...
  const previous = boundaries[boundaries.length - 1];
  writeFileSync(place.log, data.subarray(0, previous));
  await steps(place, place.log, dist);
  // ...and the session went on: its boundary and everything since were appended.
  appendFileSync(place.log, data.subarray(previous));
  settled(place.log);
}

export async function benchHook(files = []) {
  const file = files[0] ?? stitchedHookLog();
  const data = readFileSync(file);
  const dist = {
    ...(await import('../dist/store/store.js')),
    ...(await import('../dist/store/snapshot.js')),
    ...(await import('../dist/trim/apply.js')),
    ...(await import('../dist/trim/in-place.js')),
  };
  const loads = [loadavg()[0]];
  console.log(
    `PreCompact hook on ${file} (${(data.length / MB).toFixed(1)} MB; node ${process.version}, load average ${loads[0].toFixed(1)}); medians of ${RUNS} fresh runs: wall s (CPU s, this process and its git), x floor CPU`,
  );
  const work = mkdtempSync(join(tmpdir(), 'cmv-bench-hook-'));
  try {
    for (const moment of ['first', 'later']) {
      const whole = [];
      const parts = [];
      const floors = [];
      const alone = [];
      for (let run = 0; run < RUNS; run++) {
        const a = scratch(work, `${moment}-process-${run}`);
        await prepare(a, data, moment, dist);
        floors.push(floor(a.log));
        whole.push(runHookProcess(a));
        const b = scratch(work, `${moment}-steps-${run}`);
        await prepare(b, data, moment, dist);
        parts.push(await steps(b, b.log, dist));
        if (moment === 'first') {
          const c = scratch(work, `${moment}-alone-${run}`);
          await prepare(c, data, moment, dist);
          alone.push(await cliTrim(c, dist));
        }
        loads.push(loadavg()[0]);
      }
      const last = parts[parts.length - 1];
      const floorCpu = median(floors.map((x) => x.cpu));
      const f = (xs) => {
        const cpu = median(xs.map((x) => x.cpu));
        return `${median(xs.map((x) => x.seconds)).toFixed(2)} s (${cpu.toFixed(2)} CPU, ${(cpu / floorCpu).toFixed(1)}x floor)`;
      };
      console.log(`  ${moment} (load average ${loads[loads.length - 1].toFixed(1)}):`);
      console.log(`    floor (read + JSON.parse of every line of the log the hook sees): ${f(floors)}`);
      console.log(`    whole hook process (cmv hook run pre-compact): ${f(whole)}   [target <= 1.5 s]; it said: ${whole[0].stdout || '(nothing)'}`);
      const snap = last.snapshot.value;
      console.log(
        `    snapshot: ${f(parts.map((p) => p.snapshot))}, ${snap.growth}, ${(snap.newBytes / MB).toFixed(1)} MB new of ${(snap.bytes / MB).toFixed(1)} MB (${snap.newPages} of ${snap.pages} pages), ${(snap.modelledBytes / MB).toFixed(1)} MB modelled${snap.modelledInWorker ? ' in a worker thread' : ''}`,
      );
      const r = last.trim.value.result;
      console.log(
        `    in-place trim, as the hook runs it: ${f(parts.map((p) => p.trim))}   [target <= 1 s]; ${(r.input.bytes / MB).toFixed(1)} -> ${(r.output.bytes / MB).toFixed(1)} MB, tokens sent ${r.input.tokens} -> ${r.output.tokens}, verify ${r.verify.ok ? 'ok' : 'FAILED'}; history chain ${r.historyHanded ? 'handed by the snapshot' : 'kept from the last trim or read in this thread'}`,
      );
      if (alone.length) {
        const a = alone[alone.length - 1].value.result;
        console.log(`    trim --in-place alone (history chain read in a worker thread: ${a.historyInWorker ? 'yes' : 'no'}): ${f(alone)}`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
