// `cmv breakeven` and `cmv analyze` as a user runs them: the built CLI in a child process (so
// `analyze` really spreads the files over worker threads), its JSON shapes, its other formats,
// the plots, and a bad file in a batch.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRecords, toJsonl } from '../session/fixtures.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { buildIfStale, runCmv } from '../helpers/built-cli.js';

let home: string;
let logs: string;

function cmv(args: string[]) {
  return runCmv(args, { HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude'), XDG_CONFIG_HOME: join(home, 'config') }, { cwd: home });
}

beforeAll(async () => {
  await buildIfStale();
  home = mkdtempSync(join(tmpdir(), 'cmv-cost-cli-'));
  logs = join(home, 'logs');
  mkdirSync(logs);
  for (const name of ['coding.jsonl', 'large-read-image.jsonl', 'compacted.jsonl']) copyFileSync(join(SAMPLE_DIR, name), join(logs, name));
  writeFileSync(join(logs, 'fixture.jsonl'), toJsonl(sessionRecords({ turns: 3 })));
  writeFileSync(join(logs, 'broken.jsonl'), 'garbage that is no log\n');
}, 180_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('cmv breakeven --json', () => {
  it('prints the fields the issue lists, in dollars and tokens', () => {
    const r = cmv(['breakeven', join(logs, 'large-read-image.jsonl'), '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j).slice(0, 8)).toEqual(['model', 'tokens', 'reduction', 'penalty', 'savingPerTurn', 'breakEvenTurns', 'projection', 'replay']);
    expect(typeof j.model).toBe('string');
    expect(j.tokens.before).toBeGreaterThan(j.tokens.after);
    expect(j.reduction).toBeCloseTo(1 - j.tokens.after / j.tokens.before, 3);
    expect(typeof j.penalty).toBe('number');
    expect(j.savingPerTurn).toBeGreaterThan(0);
    expect(j.breakEvenTurns === null || Number.isInteger(j.breakEvenTurns)).toBe(true);
    expect(j.projection.map((p: { turns: number }) => p.turns)).toEqual([5, 10, 20, 50]);
    for (const p of j.projection) expect(Object.keys(p)).toEqual(expect.arrayContaining(['turns', 'withoutTrim', 'withTrim']));
    expect(j.replay).toMatchObject({ calls: expect.any(Number), cost: expect.any(Number), cacheReadTokens: expect.any(Number), cacheWriteTokens: expect.any(Number), ttlRewrites: 0 });
    expect(j.subscriptionNote).toMatch(/subscription/);
  });

  it('reads overrides from the config dir, and refuses a bad one with its field named', () => {
    const path = join(logs, 'coding.jsonl');
    const base = JSON.parse(cmv(['breakeven', path, '--json']).stdout);
    mkdirSync(join(home, 'config', 'cmv'), { recursive: true });
    const model = base.pricedAs as string;
    writeFileSync(join(home, 'config', 'cmv', 'config.json'), JSON.stringify({ models: { [model]: { input: 100, output: 500 } } }));
    const dear = JSON.parse(cmv(['breakeven', path, '--json']).stdout);
    expect(dear.replay.cost).toBeGreaterThan(base.replay.cost * 10);
    writeFileSync(join(home, 'config', 'cmv', 'config.json'), JSON.stringify({ models: { [model]: { input: 'cheap' } } }));
    const bad = cmv(['breakeven', path, '--json']);
    expect(bad.code).toBe(4);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(new RegExp(`models\\."${model.replace('.', '\\.')}"\\.input must be a number`));
    rmSync(join(home, 'config'), { recursive: true });
  });

  it('prices as the configured model and trims at the configured threshold unless --model and --threshold say otherwise', () => {
    const path = join(logs, 'large-read-image.jsonl');
    const base = JSON.parse(cmv(['breakeven', path, '--json']).stdout);
    expect(base.pricedAs).not.toBe('haiku-4.5');
    mkdirSync(join(home, 'config', 'cmv'), { recursive: true });
    writeFileSync(join(home, 'config', 'cmv', 'config.json'), JSON.stringify({ model: 'haiku-4.5', 'trim.threshold': 10_000_000 }));
    try {
      const configured = JSON.parse(cmv(['breakeven', path, '--json']).stdout);
      expect(configured.pricedAs).toBe('haiku-4.5');
      expect(configured.replay.cost).toBeLessThan(base.replay.cost);
      expect(configured.reduction).toBeLessThan(base.reduction / 10);
      const flagged = JSON.parse(cmv(['breakeven', path, '--json', '--model', 'opus-4.6', '--threshold', '1000']).stdout);
      expect(flagged.pricedAs).toBe('opus-4.6');
      expect(flagged.reduction).toBe(base.reduction);
    } finally {
      rmSync(join(home, 'config'), { recursive: true });
    }
  });

  it('says which calls it can trim after', () => {
    const r = cmv(['breakeven', join(logs, 'fixture.jsonl'), '--at', '99']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--at 99 is not a call of this session/);
    expect(r.stderr).toMatch(/hint: give a call number from 1 to 6/);
  });
});

describe('cmv analyze', () => {
  it('--json: the aggregate, every session, and the bad file in `failed`, from worker threads', () => {
    const r = cmv(['analyze', logs, '--jobs', '2', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(''); // no progress: stderr is not a terminal
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['aggregate', 'sessions', 'failed', 'skipped']);
    expect(j.aggregate).toMatchObject({ files: 4, sessions: 4, subagents: 0, failed: 1 });
    expect(Object.keys(j.aggregate.reduction)).toEqual(['mean', 'median', 'min', 'max']);
    expect(Object.keys(j.aggregate.breakEven)).toEqual(['<=5', '6-10', '11-20', '21-59', 'never']);
    expect(Object.keys(j.aggregate.tiers)).toEqual(['heavy', 'mixed', 'light']);
    expect(j.aggregate.bytes).toBe(j.sessions.reduce((n: number, s: { bytes: number }) => n + s.bytes, 0));
    for (const s of j.sessions) {
      expect(s).toMatchObject({ path: expect.any(String), bytes: expect.any(Number), tokens: expect.any(Number), reduction: expect.any(Number) });
      expect('sessionId' in s && 'breakEvenTurns' in s).toBe(true);
      expect('curve' in s).toBe(false);
    }
    expect(j.failed).toEqual([{ path: join(logs, 'broken.jsonl'), error: expect.stringMatching(/not a Claude Code session log/) }]);
  });

  it('gives the same answers in one thread as in two', () => {
    const one = JSON.parse(cmv(['analyze', logs, '--jobs', '1', '--json']).stdout);
    const two = JSON.parse(cmv(['analyze', logs, '--jobs', '2', '--json']).stdout);
    expect(one).toEqual(two);
  });

  it('prices every session as the configured model and trims at the configured threshold, flags first', () => {
    const base = JSON.parse(cmv(['analyze', logs, '--json']).stdout);
    mkdirSync(join(home, 'config', 'cmv'), { recursive: true });
    writeFileSync(join(home, 'config', 'cmv', 'config.json'), JSON.stringify({ model: 'haiku-4.5', 'trim.threshold': 10_000_000 }));
    try {
      const configured = JSON.parse(cmv(['analyze', logs, '--json']).stdout);
      expect(new Set(configured.sessions.map((s: { pricedAs: string }) => s.pricedAs))).toEqual(new Set(['haiku-4.5']));
      expect(configured.aggregate.reduction.mean).toBeLessThan(base.aggregate.reduction.mean);
      const flagged = JSON.parse(cmv(['analyze', logs, '--json', '--model', 'sonnet-4.5', '--threshold', '300']).stdout);
      expect(new Set(flagged.sessions.map((s: { pricedAs: string }) => s.pricedAs))).toEqual(new Set(['sonnet-4.5']));
      expect(flagged.aggregate.reduction).toEqual(base.aggregate.reduction);
    } finally {
      rmSync(join(home, 'config'), { recursive: true });
    }
  });

  it('--csv and --md', () => {
    const csv = cmv(['analyze', logs, '--csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^path,sessionId,kind,project,model,bytes,tokens,/);
    expect(csv.stdout.trimEnd().split('\r\n')).toHaveLength(1 + 4 + 1);
    const md = cmv(['analyze', logs, '--md']);
    expect(md.stdout).toMatch(/^# cmv analyze\n/);
    expect(md.stdout).toContain('## Failed');
    expect(cmv(['analyze', logs, '--csv', '--json']).code).toBe(2);
  });

  it('--svg writes the plots as SVG documents', () => {
    const dir = join(home, 'plots');
    const r = cmv(['analyze', logs, '--svg', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote reduction\.svg, break-even\.svg, cost-curves\.svg to /);
    for (const file of ['reduction.svg', 'break-even.svg', 'cost-curves.svg']) {
      const svg = readFileSync(join(dir, file), 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toMatch(/<\/svg>\s*$/);
    }
    expect(readFileSync(join(dir, 'cost-curves.svg'), 'utf8')).toContain('with trim');
  });

  it('still prints its report when every file fails, and exits 4', () => {
    const bad = join(home, 'bad-only');
    mkdirSync(bad);
    writeFileSync(join(bad, 'x.jsonl'), 'nope\n');
    const r = cmv(['analyze', bad, '--json']);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout).failed).toHaveLength(1);
  });

  it('rejects a bad --jobs, and says when nothing is found', () => {
    expect(cmv(['analyze', logs, '--jobs', '0']).code).toBe(2);
    const none = cmv(['analyze']);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no Claude Code sessions found/);
  });
});
