// `npm run bench -- trim <file>`: the whole `cmv trim` process against a floor measured in the
// same run: a process that reads the file, JSON.parses every line and JSON.stringifies it back
// to a new file. Both run as child processes, three times each; medians and peak RSS are printed.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

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

export async function benchTrim(files) {
  if (files.length === 0) throw new Error('usage: npm run bench -- trim <file...>');
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
        const t = timed(['--import', pathToFileURL(rssHook).href, join(ROOT, 'bin', 'cmv.js'), 'trim', file, '-o', join(work, 'trimmed.jsonl'), '--force', '--json']);
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
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
