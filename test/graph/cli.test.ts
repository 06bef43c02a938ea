// `cmv graph`, `cmv resume` and `cmv compact` as a user runs them: the built CLI in a child
// process, one JSON document on stdout with --json, exit codes for misuse.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DIR } from '../helpers/corpus.js';

const ROOT = resolve(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cmv.js');
const CODING = join(SAMPLE_DIR, 'coding.jsonl');
let scratch: string;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

beforeAll(() => {
  const built = join(ROOT, 'dist', 'cli', 'main.js');
  if (!existsSync(built) || statSync(built).mtimeMs < newestSource(join(ROOT, 'src'))) {
    spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  }
  scratch = mkdtempSync(join(tmpdir(), 'cmv-graph-cli-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cmv(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: scratch,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: scratch, CLAUDE_CONFIG_DIR: join(scratch, 'none') },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('cmv graph', () => {
  it('--explain names the rule behind each node, and says what each rule matches and why', () => {
    const r = cmv(['graph', CODING, '--explain']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/by [^\n]*task\.todowrite/);
    expect(r.stdout).toMatch(/by [^\n]*file\.changed/);
    expect(r.stdout).toContain('Why: ');
    expect(r.stdout).not.toContain('(no rule recorded)');
    const json = JSON.parse(cmv(['graph', CODING, '--explain', '--json']).stdout);
    expect(json.nodes.every((n: { rules?: string[] }) => (n.rules ?? []).length > 0)).toBe(true);
    expect(json.rules.map((r: { id: string }) => r.id)).toContain('task.todowrite');
    expect(cmv(['graph', CODING, '--explain', '--dot']).code).not.toBe(0);
  });

  it('prints the graph as one JSON document with --json', () => {
    const run = cmv(['graph', CODING, '--json']);
    expect(run.code).toBe(0);
    const graph = JSON.parse(run.stdout);
    expect(graph.nodes.length).toBeGreaterThan(10);
    for (const node of graph.nodes) expect(Object.keys(node)).toEqual(expect.arrayContaining(['id', 'type', 'label', 'status', 'importance', 'confidence', 'firstTurn', 'lastTurn', 'evidence']));
    for (const edge of graph.edges) expect(Object.keys(edge).sort()).toEqual(['from', 'to', 'type']);
  });

  it('prints DOT and Mermaid', () => {
    expect(cmv(['graph', CODING, '--dot']).stdout).toMatch(/^digraph "[^"]+" \{\n/);
    expect(cmv(['graph', CODING, '--mermaid']).stdout).toMatch(/^flowchart LR\n {2}n0\[/);
  });

  it('prints a readable summary by default', () => {
    const run = cmv(['graph', CODING]);
    expect(run.stdout).toContain('GOAL (1)');
    expect(run.stdout).toContain('tally/report.py');
  });

  it('refuses two formats at once (exit 2)', () => {
    const run = cmv(['graph', CODING, '--json', '--dot']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('choose one of --json, --dot and --mermaid');
  });
});

describe('cmv resume', () => {
  it("prints {text, tokens, tier, sections} within the tier's budget", () => {
    const block = JSON.parse(cmv(['resume', CODING, '--tier', 'critical', '--json']).stdout);
    expect(block.tier).toBe('critical');
    expect(block.tokens).toBeLessThanOrEqual(100);
    expect(Object.keys(block.sections)).toEqual(expect.arrayContaining(['goal', 'done', 'inProgress', 'pending', 'decisions', 'files', 'errors', 'env']));
    // The sample's first turn fixed the bug its opening prompt reported: the goal is done. Its
    // todo list records that work item by item, so the goal is their heading, not a done task too.
    expect(block.text).toMatch(/^Goal✓ /);
    expect(block.sections.done).not.toContain(block.sections.goal[0]);
  });

  it('honours --budget and rejects a bad tier with a hint', () => {
    expect(JSON.parse(cmv(['resume', CODING, '--budget', '60', '--json']).stdout).tokens).toBeLessThanOrEqual(60);
    const run = cmv(['resume', CODING, '--tier', 'huge']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('hint: critical <= 100 tokens');
  });
});

describe('cmv compact', () => {
  it('writes the compacted log and reports its zones', () => {
    const out = join(scratch, 'coding-compacted.jsonl');
    const run = cmv(['compact', CODING, '-o', out, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.check.ok).toBe(true);
    expect(report.output.path).toBe(out);
    expect(report.zones.a.messages).toBe(5);
    expect(readFileSync(out, 'utf8')).toContain('"subtype":"compact_boundary"');
    // Not over an existing file without --force.
    expect(cmv(['compact', CODING, '-o', out]).code).toBe(8);
    expect(cmv(['compact', CODING, '-o', out, '--force', '--keep', '3']).code).toBe(0);
  });

  it('says when there is nothing to compact (exit 4)', () => {
    const run = cmv(['compact', join(SAMPLE_DIR, 'short.jsonl'), '-o', join(scratch, 'short.jsonl')]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('hint: lower --keep');
  });
});
