// The snapshot store's benchmark (`npm run bench -- store [sessions...]`, after `npm run build`):
//   1. storage: 20 successive snapshots of each session growing by appends, against the final
//      session gzipped alone, for the page layouts compared (default pages, smaller, larger, one
//      blob per line), before and after `cmv gc`;
//   2. incremental cost: one append of the same size to a small and to a ~50 MB session;
//   3. a ~50 MB session (stitched from real ones with bench/stitch.js): snapshot, branch
//      (trimmed, as by default, and --no-trim) and fsck times, medians of 3 fresh runs; and the
//      snapshot as it would be with its session graph stored (above GRAPH_MAX_BYTES it is not).
// Every run uses its own CMV_HOME and CLAUDE_CONFIG_DIR in a temp folder.

import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { openStore } from '../dist/store/store.js';
import { GRAPH_MAX_BYTES, takeSnapshot } from '../dist/store/snapshot.js';
import { branchSnapshot } from '../dist/store/branch.js';
import { collectGarbage } from '../dist/store/maintenance.js';
import { checkStore } from '../dist/store/fsck.js';
import { PAGE_RULE } from '../dist/store/pages.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CORPUS = join(HERE, '..', '..', 'shared', 'corpus', 'claude-code');
const SAMPLES = join(HERE, '..', 'sample-sessions');
const SNAPSHOTS = 20;
const KB = 1024;
const MB = 1024 * 1024;
const LATER = () => new Date(Date.now() + 3600_000); // "now" an hour on: no active-session warnings

const LAYOUTS = [
  ['pages ~190 KB (default)', PAGE_RULE],
  ['pages ~50 KB', { minBytes: 16 * KB, spreadBytes: 32 * KB, maxBytes: 256 * KB }],
  ['pages ~380 KB', { minBytes: 128 * KB, spreadBytes: 256 * KB, maxBytes: 2048 * KB }],
  ['one blob per line', { minBytes: 0, spreadBytes: 1, maxBytes: 0 }],
];

function tempEnv() {
  const root = mkdtempSync(join(tmpdir(), 'cmv-bench-store-'));
  const env = { ...process.env, CMV_HOME: join(root, 'cmv'), CLAUDE_CONFIG_DIR: join(root, 'claude') };
  mkdirSync(join(env.CLAUDE_CONFIG_DIR, 'projects', '-tmp-bench'), { recursive: true });
  return { root, env, session: (id) => join(env.CLAUDE_CONFIG_DIR, 'projects', '-tmp-bench', `${id}.jsonl`) };
}

function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

function lineEnds(data) {
  const ends = [];
  for (let i = data.indexOf(10); i >= 0; i = data.indexOf(10, i + 1)) ends.push(i + 1);
  return ends;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

const pad = (text, width, right = true) => (right ? String(text).padStart(width) : String(text).padEnd(width));
const mb = (bytes) => (bytes / MB).toFixed(2);
const seconds = (ms) => (ms / 1000).toFixed(2);

async function storageRun(file, rule) {
  const t = tempEnv();
  try {
    const store = await openStore(t.env);
    const data = readFileSync(file);
    const ends = lineEnds(data);
    const path = t.session('3f2a9c1e-5b7d-4e0f-9a1b-2c3d4e5f6a7b');
    let written = 0;
    let ms = 0;
    for (let k = 1; k <= SNAPSHOTS; k++) {
      writeFileSync(path, data.subarray(0, ends[Math.floor((ends.length * k) / SNAPSHOTS) - 1]));
      const started = performance.now();
      const result = await takeSnapshot(store, path, { now: LATER(), pageRule: rule });
      ms += performance.now() - started;
      written += result.newBytes;
    }
    const stored = bytesUnder(join(store.dir, 'objects'));
    await collectGarbage(store);
    return { stored, afterGc: bytesUnder(join(store.dir, 'objects')), written, ms };
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
}

async function benchStorage(files) {
  console.log(`\n1. storage: ${SNAPSHOTS} snapshots of a session growing by appends, vs the final session gzipped alone (target <= 1.30)`);
  console.log([pad('session', 46, false), pad('MB', 6), pad('gzip MB', 8), pad('layout', 24, false), pad('written', 8), pad('store', 7), pad('ratio', 6), pad("gc'd", 6), pad('ms/snap', 8)].join(' '));
  const ratios = new Map(LAYOUTS.map(([name]) => [name, []]));
  for (const file of files) {
    const size = statSync(file).size;
    const gz = gzipSync(readFileSync(file)).length;
    for (const [name, rule] of LAYOUTS) {
      const r = await storageRun(file, rule);
      ratios.get(name).push(r.stored / gz);
      console.log(
        [
          pad(basename(file).slice(0, 46), 46, false),
          pad(mb(size), 6),
          pad(mb(gz), 8),
          pad(name, 24, false),
          pad(`${(r.written / size).toFixed(2)}x`, 8),
          pad(mb(r.stored), 7),
          pad((r.stored / gz).toFixed(2), 6),
          pad((r.afterGc / gz).toFixed(2), 6),
          pad((r.ms / SNAPSHOTS).toFixed(0), 8),
        ].join(' '),
      );
    }
  }
  console.log('written = bytes of log the snapshots stored as new pages / final size; store = objects/ on disk before gc; ratio = store / gzip');
  for (const [name, list] of ratios) console.log(`  ${pad(name, 24, false)} median ratio ${median(list).toFixed(2)}, worst ${Math.max(...list).toFixed(2)}`);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** About `bytes` of real lines (the sample session's), with fresh uuids so each append is new content. */
function appendOf(bytes) {
  const text = readFileSync(join(SAMPLES, 'coding.jsonl'), 'utf8');
  let out = '';
  while (out.length < bytes) {
    const ids = new Map();
    out += text.replace(UUID, (u) => ids.get(u) ?? (ids.set(u, randomUUID()), ids.get(u)));
  }
  const data = Buffer.from(out);
  return data.subarray(
    0,
    lineEnds(data).find((e) => e >= bytes),
  );
}

async function incremental(file, extra) {
  const t = tempEnv();
  try {
    const store = await openStore(t.env);
    const path = t.session('9c1e3f2a-7b5d-4f0e-8b1a-7a6f5e4d3c2b');
    writeFileSync(path, readFileSync(file));
    await takeSnapshot(store, path, { now: LATER() });
    const times = [];
    let newBytes = 0;
    for (let i = 0; i < 3; i++) {
      appendFileSync(path, extra());
      const started = performance.now();
      newBytes = (await takeSnapshot(store, path, { now: LATER() })).newBytes;
      times.push(performance.now() - started);
    }
    return { size: statSync(path).size, ms: median(times), newBytes };
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
}

async function bigRuns(file) {
  const snapshot = [];
  const branch = [];
  const whole = [];
  const fsck = [];
  const graphed = [];
  for (let i = 0; i < 3; i++) {
    const t = tempEnv();
    try {
      const store = await openStore(t.env);
      const path = t.session('4b2030ed-0000-4000-8000-000000000050');
      writeFileSync(path, readFileSync(file));
      let started = performance.now();
      const snap = await takeSnapshot(store, path, { now: LATER() });
      snapshot.push(performance.now() - started);
      started = performance.now();
      const b = await branchSnapshot(store, snap.name, { env: t.env });
      branch.push(performance.now() - started);
      started = performance.now();
      await branchSnapshot(store, snap.name, { trim: false, env: t.env });
      whole.push(performance.now() - started);
      started = performance.now();
      const report = await checkStore(store);
      fsck.push(performance.now() - started);
      if (!report.ok) throw new Error(`fsck failed: ${JSON.stringify(report.problems.slice(0, 3))}`);
      rmSync(store.dir, { recursive: true, force: true });
      const fresh = await openStore(t.env);
      started = performance.now();
      await takeSnapshot(fresh, path, { now: LATER(), graphMaxBytes: Infinity });
      graphed.push(performance.now() - started);
      if (i === 0) console.log(`  branch: ${mb(b.bytes.before)} MB -> ${mb(b.bytes.after)} MB trimmed; store ${mb(bytesUnder(join(store.dir, 'objects')))} MB`);
    } finally {
      rmSync(t.root, { recursive: true, force: true });
    }
  }
  return { snapshot: median(snapshot), branch: median(branch), whole: median(whole), fsck: median(fsck), graphed: median(graphed) };
}

function stitched(sources) {
  const out = join(tmpdir(), 'cmv-bench-stitched-50.jsonl');
  if (!existsSync(out)) {
    const made = spawnSync(process.execPath, [join(HERE, 'stitch.js'), out, '50', ...sources], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
  }
  return out;
}

export default async function benchStore(args) {
  const corpus = existsSync(CORPUS)
    ? readdirSync(CORPUS)
        .filter((f) => f.endsWith('.jsonl') && !f.includes('agent-'))
        .map((f) => join(CORPUS, f))
    : [];
  const bySize = (list) => [...list].sort((a, b) => statSync(b).size - statSync(a).size);
  const files = args.length
    ? args
    : bySize(
        corpus.length
          ? corpus
          : readdirSync(SAMPLES)
              .filter((f) => f.endsWith('.jsonl'))
              .map((f) => join(SAMPLES, f)),
      ).slice(0, 6);
  const load = () => `load average ${loadavg()[0].toFixed(1)}`;
  console.log(`cmv store benchmark (git ${spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim().split(' ').pop()}, node ${process.version}, ${load()})`);
  await benchStorage(files);

  // Sessions without compactions stitch into one log a trim verifies (bench/stitch.js).
  const sources = corpus.length ? corpus.filter((f) => /happy-400429ba|ada8171575|fe5e1c67-v1.0.98-long|26dcd5518f|91b42542f2/.test(f)) : files;
  const big = stitched(sources);
  const extra = () => appendOf(64 * KB);
  console.log(`\n2. incremental snapshot: append ${(extra().length / KB).toFixed(0)} KB of real lines (fresh uuids), then snapshot (median of 3)`);
  for (const file of [bySize(files).at(-1), bySize(files)[0], big]) {
    const r = await incremental(file, extra);
    console.log(`  session ${pad(mb(r.size), 6)} MB: ${pad(r.ms.toFixed(0), 5)} ms, ${(r.newBytes / KB).toFixed(0)} KB new in the store`);
  }

  console.log(`\n3. a ${mb(statSync(big).size)} MB session (${basename(big)}): medians of 3 fresh stores (target <= 2 s each)`);
  const r = await bigRuns(big);
  console.log(`  (${load()})`);
  console.log(`  snapshot ${seconds(r.snapshot)} s   branch (trimmed) ${seconds(r.branch)} s   branch --no-trim ${seconds(r.whole)} s   fsck ${seconds(r.fsck)} s`);
  console.log(`  snapshot with its session graph stored ${seconds(r.graphed)} s (logs over ${mb(GRAPH_MAX_BYTES)} MB are stored without it)`);
}
