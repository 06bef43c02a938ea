// Precision of secret redaction on real logs (`npm run bench -- redact [--show] [dirs...]`, after
// `npm run build`). Every string of every line is scanned with the rules export uses; a fixed
// sample of the distinct values redacted (ordered by a hash, so the same findings give the same
// sample) is scored against bench/redact-labels.json, which holds a judgement per value as the
// first 16 hex digits of its sha256, never the value. `--show` prints each sampled finding in its
// context, with its hash, so that a person can label the ones not yet judged. The default sets:
// claude-code (tuned on) and claude-code-recent (held out: judged once, not tuned on).
// Also times redaction (cmv export's redactText) against JSON.parse of every line, as a ratio.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { findSecrets } from '../dist/secrets/scan.js';
import { redactText } from '../dist/store/redact.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHARED = join(HERE, '..', '..', 'shared', 'corpus');
const DEFAULT_DIRS = [join(SHARED, 'claude-code'), join(SHARED, 'claude-code-recent')];
const LABELS_FILE = join(HERE, 'redact-labels.json');
const SAMPLE = 50;

const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function strings(value, out) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

function scanDir(dir) {
  const found = new Map(); // hash -> { rule, value, count, context }
  let bytes = 0;
  let redactMs = 0;
  let parseMs = 0;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    bytes += Buffer.byteLength(text);
    let t = performance.now();
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return l;
        }
      });
    parseMs += performance.now() - t;
    t = performance.now();
    redactText(text);
    redactMs += performance.now() - t;
    for (const record of lines) {
      for (const s of strings(record, [])) {
        for (const f of findSecrets(s)) {
          const value = s.slice(f.start, f.end);
          const key = hash(value);
          const seen = found.get(key);
          if (seen) seen.count++;
          else found.set(key, { rule: f.rule.id, value, count: 1, file, context: `${s.slice(Math.max(0, f.start - 80), f.start)}⟦${value}⟧${s.slice(f.end, f.end + 50)}` });
        }
      }
    }
  }
  return { found, bytes, redactMs, parseMs };
}

export default async function benchRedact(args) {
  const show = args.includes('--show');
  const dirs = args.filter((a) => !a.startsWith('--'));
  const labels = existsSync(LABELS_FILE) ? JSON.parse(readFileSync(LABELS_FILE, 'utf8')) : {};
  for (const dir of dirs.length ? dirs : DEFAULT_DIRS) {
    if (!existsSync(dir)) {
      console.log(`${dir}: absent, skipped`);
      continue;
    }
    const { found, bytes, redactMs, parseMs } = scanDir(dir);
    const all = [...found.entries()];
    const occurrences = all.reduce((n, [, f]) => n + f.count, 0);
    const byRule = {};
    for (const [, f] of all) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1;
    const sample = all.sort(([a], [b]) => (a < b ? -1 : 1)).slice(0, SAMPLE);
    let yes = 0;
    let no = 0;
    let yesOcc = 0;
    let labelledOcc = 0;
    const unlabelled = [];
    for (const [key, f] of sample) {
      const label = labels[key];
      if (label === 'secret') {
        yes++;
        yesOcc += f.count;
      } else if (label === 'not') no++;
      else unlabelled.push(key);
      if (label) labelledOcc += f.count;
    }
    console.log(`\n${basename(dir)}: ${(bytes / 1e6).toFixed(1)} MB, ${occurrences} redactions of ${all.length} distinct values`);
    console.log(
      `  by rule (distinct values): ${Object.entries(byRule)
        .map(([r, n]) => `${r} ${n}`)
        .join(', ')}`,
    );
    const judged = yes + no;
    console.log(
      `  precision on a sample of ${sample.length} distinct values: ${judged ? `${yes}/${judged} = ${((100 * yes) / judged).toFixed(1)}%` : 'n/a'} (weighted by occurrences: ${labelledOcc ? ((100 * yesOcc) / labelledOcc).toFixed(1) : 'n/a'}%)${unlabelled.length ? `, ${unlabelled.length} not yet labelled` : ''}`,
    );
    console.log(`  redactText: ${(bytes / 1e6 / (redactMs / 1000)).toFixed(1)} MB/s, ${(redactMs / parseMs).toFixed(2)}x the time of JSON.parse of every line`);
    if (show) for (const [key, f] of sample) console.log(`  ${key} ${labels[key] ?? '?'} [${f.rule}] x${f.count} ${f.context.replace(/\s+/g, ' ').slice(0, 260)}`);
  }
}
