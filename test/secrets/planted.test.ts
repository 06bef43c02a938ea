// Recall on the planted-secret corpus (test/helpers/planted-secrets.ts): what leaves the machine
// (`cmv export` / `push` redact the log's raw lines) and what the graph keeps (labels in graph.json)
// must hold none of the random parts of any planted secret.

import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/store/redact.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { scriptRecords, sessionOfRecords } from '../graph/script-session.js';
import { PLANTED_KINDS, leaks, plantedSecrets, randomString, seeded } from '../helpers/planted-secrets.js';

const planted = plantedSecrets(Number(process.env.PLANTED_SEED ?? 156));

/** Every string in a JSON value, joined: what a reader of the redacted line could see. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  return out;
}

interface Score {
  caught: number;
  total: number;
  missed: string[];
}

function score(check: (p: (typeof planted)[number]) => boolean): { all: Score; byKind: Map<string, Score>; byPosition: Map<string, Score> } {
  const all: Score = { caught: 0, total: 0, missed: [] };
  const byKind = new Map<string, Score>();
  const byPosition = new Map<string, Score>();
  for (const p of planted) {
    const ok = check(p);
    for (const s of [all, getOr(byKind, p.kind.id), getOr(byPosition, p.position)]) {
      s.total++;
      if (ok) s.caught++;
      else s.missed.push(`${p.kind.id}@${p.position}`);
    }
  }
  return { all, byKind, byPosition };
}

function getOr(map: Map<string, Score>, key: string): Score {
  let s = map.get(key);
  if (!s) map.set(key, (s = { caught: 0, total: 0, missed: [] }));
  return s;
}

function report(name: string, s: ReturnType<typeof score>): void {
  const pct = (x: Score) => `${x.caught}/${x.total} (${((100 * x.caught) / x.total).toFixed(1)}%)`;
  const lines = [`${name}: ${pct(s.all)}`];
  for (const [pos, x] of s.byPosition) lines.push(`  ${pos.padEnd(18)} ${pct(x)}`);
  const weak = [...s.byKind].filter(([, x]) => x.caught < x.total).map(([k, x]) => `${k} ${x.caught}/${x.total}`);
  if (weak.length) lines.push(`  kinds missed: ${weak.join(', ')}`);
  console.log(lines.join('\n'));
}

describe('planted secrets', () => {
  it('covers at least 60 kinds in every position', () => {
    expect(PLANTED_KINDS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(planted.map((p) => p.position)).size).toBe(13);
    expect(planted.length).toBeGreaterThan(600);
  });

  it('are redacted from the lines cmv export and push send (>= 99%, every kind)', () => {
    const s = score((p) => {
      const jsonl =
        scriptRecords(p.steps)
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n';
      const out = redactText(jsonl).text;
      const lines = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      return !leaks(strings(lines).join('\n'), p.body) && !leaks(out, p.body);
    });
    report('export', s);
    expect(s.all.caught / s.all.total).toBeGreaterThanOrEqual(0.99);
    for (const [kind, x] of s.byKind) expect(x.caught, `${kind}: ${x.missed.join(' ')}`).toBeGreaterThanOrEqual(x.total - 1);
  });

  it('never reach the graph (graph.json labels)', () => {
    const s = score((p) => !leaks(JSON.stringify(buildGraph(sessionOfRecords(scriptRecords(p.steps)))), p.body));
    report('graph', s);
    expect(s.all.caught).toBe(s.all.total);
  });

  it('keeps a PGP private key pasted by the user out of graph.json, line by line', () => {
    const r = seeded(42);
    const body = Array.from({ length: 8 }, () => randomString(r, 64, 'b64'));
    const key = ['-----BEGIN PGP PRIVATE KEY BLOCK-----', '', ...body, `=${randomString(r, 4, 'b64')}`, '-----END PGP PRIVATE KEY BLOCK-----'].join('\n');
    const records = scriptRecords([{ user: `Import this signing key and sign the release tags:\n${key}` }, { assistant: 'Imported; the tags are signed.' }]);
    const graph = JSON.stringify(buildGraph(sessionOfRecords(records)));
    expect(leaks(graph, body)).toBe(false);
    expect(graph).toContain('signing key');
    const exported = redactText(records.map((x) => JSON.stringify(x)).join('\n')).text;
    expect(leaks(exported, body)).toBe(false);
  });
});
