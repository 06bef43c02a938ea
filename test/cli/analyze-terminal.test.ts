// `cmv analyze` for a person at a terminal and for a pipe: the built CLI in a pseudo-terminal
// (`script`), where stderr gets a progress line redrawn in place and stdout the charts, coloured
// unless NO_COLOR, --no-color or TERM=dumb; in a pipe, or with --json, none of that.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildIfStale, runCmv } from '../helpers/built-cli.js';
import { SAMPLE_DIR as SAMPLES } from '../helpers/corpus.js';

const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const COLOUR = /\u001b\[\d+(;\d+)*m/;
const CHARTS = ['Reduction of a trim (sessions)', 'Break-even in calls (sessions)'];

let home: string;
let env: Record<string, string>;
/** The 2.1.100 samples (6 sessions, 2 subagent transcripts, 720 KB), without the 2.1.332 folder. */
let SAMPLE_DIR: string;

beforeAll(async () => {
  await buildIfStale();
  home = mkdtempSync(join(tmpdir(), 'cmv-analyze-tty-'));
  SAMPLE_DIR = join(home, 'samples');
  for (const name of readdirSync(SAMPLES)) if (name !== '2.1.332') cpSync(join(SAMPLES, name), join(SAMPLE_DIR, name), { recursive: true });
  env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), TERM: 'xterm-256color' };
}, 180_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs cmv in a 100x50 pseudo-terminal; returns all it drew (stdout and stderr together). */
function inTerminal(args: string[], extraEnv: Record<string, string> = {}, redirect = ''): string {
  const command = `stty cols 100 rows 50; ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}${redirect}`;
  const run = spawnSync('script', ['-q', '-e', '-c', command, '/dev/null'], { env: { PATH: process.env.PATH, ...env, ...extraEnv }, encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('cmv analyze in a pipe', () => {
  it('prints the report without progress or charts', () => {
    const run = runCmv(['analyze', SAMPLE_DIR, '--jobs', '1'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Reduction of a trim: mean');
    for (const chart of CHARTS) expect(run.stdout).not.toContain(chart);
    expect(run.stdout).not.toContain('█');
  });
});

describe.skipIf(!HAS_SCRIPT)('cmv analyze on a terminal', () => {
  it('shows progress on stderr, redrawn in place, then the report with both charts, in colour', () => {
    const drawn = inTerminal(['analyze', SAMPLE_DIR, '--jobs', '1']);
    expect(drawn).toMatch(/\ranalysing \S* +\S* 0\/8 files · 0 B of 720 KB · … MB\/s · ETA …\u001b\[K/);
    expect(drawn).toMatch(/\ranalysing .* 8\/8 files · 720 KB of 720 KB · [\d.]+ MB\/s · done\u001b\[K/);
    // The line is wiped before the report starts.
    expect(drawn).toMatch(/\r\u001b\[2K.*Analysed 8 files/);
    for (const chart of CHARTS) expect(drawn).toContain(chart);
    expect(drawn).toMatch(/ 0-10% \S*█/);
    expect(drawn).toMatch(/warm resume\s.*cold resume/);
    expect(drawn).toMatch(COLOUR);
  });

  it('draws the progress for stderr and the charts for stdout, each only when it is a terminal', () => {
    const out = join(home, 'report.txt');
    const drawn = inTerminal(['analyze', SAMPLE_DIR, '--jobs', '1'], {}, ` > ${quote(out)}`);
    expect(drawn).toContain('8/8 files');
    const report = readFileSync(out, 'utf8');
    expect(report).toContain('Reduction of a trim: mean');
    for (const chart of CHARTS) expect(report).not.toContain(chart);
    expect(report).not.toContain('analysing');
  });

  it('prints only the JSON document with --json, and only the CSV with --csv', () => {
    const json = inTerminal(['analyze', SAMPLE_DIR, '--json']);
    expect(json).not.toContain('analysing');
    expect(JSON.parse(json.replace(/\r\n/g, '\n')).aggregate.files).toBe(8);
    const csv = inTerminal(['analyze', SAMPLE_DIR, '--csv']);
    expect(csv).not.toContain('analysing');
    expect(csv).not.toContain('█');
    expect(csv.startsWith('path,sessionId,')).toBe(true);
  });

  it('draws the charts without colour for NO_COLOR and --no-color', () => {
    for (const [args, extra] of [
      [['analyze', SAMPLE_DIR], { NO_COLOR: '1' }],
      [['analyze', SAMPLE_DIR, '--no-color'], {}],
    ] as const) {
      const drawn = inTerminal([...args], { ...extra, FORCE_COLOR: '1' });
      for (const chart of CHARTS) expect(drawn).toContain(chart);
      expect(drawn).toContain('8/8 files');
      expect(drawn).not.toMatch(COLOUR);
    }
  });

  it('uses no escape sequence at all on TERM=dumb', () => {
    const drawn = inTerminal(['analyze', SAMPLE_DIR], { TERM: 'dumb' });
    expect(drawn).toContain('8/8 files');
    for (const chart of CHARTS) expect(drawn).toContain(chart);
    expect(drawn).not.toContain('\u001b');
  });
});
