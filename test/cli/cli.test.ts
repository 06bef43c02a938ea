// The built CLI as a user runs it: `node bin/cmv.js ...` in a child process, with
// CLAUDE_CONFIG_DIR pointing at a temp config dir that holds a generated session (and a copy of
// a sample session when there is one). Checks exit codes, stdout/stderr discipline and colour.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRecords, toJsonl, FIXTURE_MODEL } from '../session/fixtures.js';
import { sampleFiles } from '../helpers/corpus.js';

const ROOT = resolve(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cmv.js');
const ESC = '\u001b[';
const SESSION_ID = '3f2a9c1e-5b7d-4e0f-9a1b-2c3d4e5f6a7b';

/** Newest modification time of the .ts files under `dir`. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    if (name.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (name.name.endsWith('.ts') || name.name.endsWith('.tsx')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function buildIfStale(): void {
  const built = join(ROOT, 'dist', 'cli', 'main.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newestSource(join(ROOT, 'src'))) return;
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`build failed:\n${tsc.stdout}${tsc.stderr}`);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let home: string;
let config: string;
let sessionPath: string;

function cmv(args: string[], env: Record<string, string> = {}): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: home,
    encoding: 'utf8',
    // A clean environment: no colour settings leak in from the test runner.
    env: { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_CONFIG_DIR: config, ...env },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  buildIfStale();
  home = mkdtempSync(join(tmpdir(), 'cmv-cli-'));
  config = join(home, 'claude-config');
  const project = join(config, 'projects', '-home-me-my-app');
  mkdirSync(project, { recursive: true });
  sessionPath = join(project, `${SESSION_ID}.jsonl`);
  writeFileSync(sessionPath, toJsonl(sessionRecords({ sessionId: SESSION_ID, cwd: '/home/me/my_app', turns: 1 })));
}, 120_000);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('cmv', () => {
  it('prints the version of package.json with --version', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const run = cmv(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  it('starts --help with examples', () => {
    const run = cmv(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('Examples:')).toBe(true);
    expect(run.stdout).toContain('stats');
  });

  it('suggests `stats` for the unknown command `stast` and exits 2', () => {
    const run = cmv(['stast', sessionPath]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'stast'");
    expect(run.stderr).toMatch(/Did you mean stats\?/);
    expect(run.stdout).toBe('');
  });

  describe('stats --json', () => {
    let run: Run;
    let doc: Record<string, any>;
    beforeAll(() => {
      run = cmv(['stats', sessionPath, '--json']);
      doc = JSON.parse(run.stdout);
    });

    it('prints exactly one JSON document on stdout and nothing on stderr', () => {
      expect(run.code).toBe(0);
      expect(typeof doc).toBe('object');
      expect(run.stderr).toBe('');
    });

    it('has the documented fields', () => {
      for (const field of ['path', 'sessionId', 'lines', 'malformedLines', 'gluedLines', 'entries', 'messages', 'compactions', 'subagents', 'tokens', 'usage', 'calibration']) {
        expect(doc, field).toHaveProperty(field);
      }
      expect(Object.keys(doc.messages).sort()).toEqual(['assistant', 'toolResults', 'toolUses', 'unpairedToolResults', 'unpairedToolUses', 'user']);
      expect(Object.keys(doc.tokens).sort()).toEqual(['byKind', 'byTool', 'total']);
      expect(Object.keys(doc.tokens.byKind).sort()).toEqual(['assistantText', 'image', 'thinking', 'toolResult', 'toolUseInput', 'userText']);
      for (const field of ['apiCalls', 'lastContextTokens', 'cacheReadTokens', 'cacheWriteTokens', 'outputTokens']) expect(doc.usage, field).toHaveProperty(field);
      expect(doc.calibration).toHaveProperty('ratio');
    });

    it('describes the session: a prompt, a split Read call, its result and an answer', () => {
      expect(doc.path).toBe(sessionPath);
      expect(doc.sessionId).toBe(SESSION_ID);
      expect(doc.lines).toBe(5);
      expect(doc.malformedLines).toEqual([]);
      expect(doc.gluedLines).toEqual([]);
      expect(doc.entries).toEqual({ user: 2, assistant: 3 });
      expect(doc.messages).toEqual({ user: 2, assistant: 3, toolUses: 1, toolResults: 1, unpairedToolUses: 0, unpairedToolResults: 0 });
      expect(doc.compactions).toBe(0);
      expect(doc.subagents).toBe(0);
      expect(doc.tokens.total).toBeGreaterThan(0);
      expect(Object.keys(doc.tokens.byTool)).toEqual(['Read']);
      expect(doc.usage).toMatchObject({ apiCalls: 2, lastContextTokens: 3 + 500 + 15_900, cacheReadTokens: 30_900, cacheWriteTokens: 1000, outputTokens: 168 });
      expect(doc.calibration.ratio).toBeNull();
      expect(doc.models).toEqual([FIXTURE_MODEL]);
    });
  });

  it('finds the session by id prefix and by `latest` in CLAUDE_CONFIG_DIR', () => {
    for (const arg of ['3f2a', 'latest', SESSION_ID]) {
      const run = cmv(['stats', arg, '--json']);
      expect(run.code, arg).toBe(0);
      expect(JSON.parse(run.stdout).path).toBe(sessionPath);
    }
  });

  it('prints human stats on stdout', () => {
    const run = cmv(['stats', sessionPath]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(SESSION_ID);
    expect(run.stdout).toContain('Context on resume:');
    expect(run.stdout).toContain('2 calls');
    expect(run.stderr).toBe('');
  });

  it('lists the session with `sessions --json`', () => {
    const run = cmv(['sessions', '--json']);
    expect(run.code).toBe(0);
    const sessions = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ id: SESSION_ID, path: sessionPath, cwd: '/home/me/my_app', lines: 5, version: '2.1.14', model: FIXTURE_MODEL });
    expect(sessions[0].firstPrompt).toContain('January report');
  });

  it('shows the model of each session in `sessions`, as the README promises', () => {
    const run = cmv(['sessions']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/\bmodel\b/);
    expect(run.stdout).toContain('sonnet-4-5');
    expect(run.stdout).toContain('1 session');
  });

  it('says where it looked, and that the filter hid the sessions, when `sessions --project` matches none', () => {
    const run = cmv(['sessions', '--project', 'no-such-project']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No session\'s project matches "no-such-project" (1 session in');
    expect(run.stdout).toContain(join(config, 'projects'));
    expect(run.stdout).not.toContain('Set CLAUDE_CONFIG_DIR');
    const empty = cmv(['sessions'], { CLAUDE_CONFIG_DIR: join(home, 'empty-config') });
    expect(empty.stdout).toContain(`No sessions found in ${join(home, 'empty-config', 'projects')}`);
  });

  it('lists the words a completion offers at the TAB, and never creates a store for it', () => {
    expect(cmv(['__complete', 'sessions']).stdout.trim().split('\n')).toEqual([SESSION_ID]);
    expect(cmv(['__complete', 'config-keys']).stdout).toContain('trim.threshold\n');
    const snapshots = cmv(['__complete', 'snapshots'], { CMV_HOME: join(home, 'no-store-yet') });
    expect(snapshots).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(home, 'no-store-yet'))).toBe(false);
    expect(cmv(['--help']).stdout).not.toContain('__complete');
  });

  it('exits 3 for a missing file, with `cmv:` and `hint:` lines on stderr and nothing on stdout', () => {
    for (const args of [
      ['stats', join(home, 'missing.jsonl')],
      ['stats', join(home, 'missing.jsonl'), '--json'],
    ]) {
      const run = cmv(args);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/^cmv: /);
      expect(lines[0]).toContain('missing.jsonl');
      expect(lines[1]).toMatch(/^hint: /);
    }
  });

  it('exits 2 for a usage error of a subcommand (missing argument, unknown option, bad choice), as the README says', () => {
    for (const args of [['trim'], ['stats', sessionPath, '--bogus'], ['hook', 'install', '--scope', 'everywhere'], ['config', 'get']]) {
      const run = cmv(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr, args.join(' ')).toMatch(/^error: /);
    }
  });

  it('hook install makes the snapshot store the PreCompact hook writes to, so a compaction never waits for its creation', () => {
    const own = mkdtempSync(join(home, 'hook-install-'));
    const env = { HOME: own, CMV_HOME: join(own, 'cmv'), CLAUDE_CONFIG_DIR: join(own, 'claude') };
    const run = cmv(['hook', 'install', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { store?: { path?: string } };
    expect(out.store?.path).toBe(join(own, 'cmv', 'store'));
    expect(existsSync(join(own, 'cmv', 'store', 'config'))).toBe(true);
    // With snapshots off, no store is made.
    const off = mkdtempSync(join(home, 'hook-install-off-'));
    const offEnv = { HOME: off, CMV_HOME: join(off, 'cmv'), CLAUDE_CONFIG_DIR: join(off, 'claude') };
    expect(cmv(['config', 'set', 'hook.snapshot', 'false'], offEnv).code).toBe(0);
    const quiet = cmv(['hook', 'install', '--json'], offEnv);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect((JSON.parse(quiet.stdout) as { store?: unknown }).store).toBeUndefined();
    expect(existsSync(join(off, 'cmv', 'store'))).toBe(false);
  });

  describe('refuses what is not a Claude Code session log', () => {
    const inputs: Record<string, string | Buffer> = {
      empty: '',
      binary: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe, 0x00, 0x10]),
      foreign: '{"event":"click","x":1}\n{"event":"scroll","y":2}\n',
    };
    for (const [kind, content] of Object.entries(inputs)) {
      it(`stats, trim and graph exit 4 on ${kind} input and write nothing`, () => {
        const dir = mkdtempSync(join(home, `bad-${kind}-`));
        const file = join(dir, 'log.jsonl');
        writeFileSync(file, content);
        for (const args of [
          ['stats', file],
          ['trim', file],
          ['trim', file, '-o', join(dir, 'out.jsonl')],
          ['graph', file, '--json'],
        ]) {
          const run = cmv(args);
          expect(run.code, `${args[0]} ${kind}`).toBe(4);
          expect(run.stdout, `${args[0]} ${kind}`).toBe('');
          expect(run.stderr, `${args[0]} ${kind}`).toMatch(/^cmv: .*(is empty|is not a Claude Code session log|holds no user or assistant messages)/);
        }
        expect(readdirSync(dir)).toEqual(['log.jsonl']);
      });
    }
  });

  it.skipIf(sampleFiles().length === 0)('reads a copy of a sample session', () => {
    const sample = sampleFiles()[0];
    const copy = join(home, 'sample-copy.jsonl');
    copyFileSync(sample, copy);
    const run = cmv(['stats', copy, '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.lines).toBe(
      readFileSync(sample, 'utf8')
        .split('\n')
        .filter((l, i, all) => i < all.length - 1 || l !== '').length,
    );
    expect(doc.malformedLines).toEqual([]);
    expect(doc.tokens.total).toBeGreaterThan(0);
  });

  describe('colour', () => {
    // An error message is coloured on stderr (red `cmv:`, dim `hint:`).
    const missing = () => ['stats', join(home, 'missing.jsonl')];

    it('prints no colour when stdout and stderr are not a terminal', () => {
      expect(cmv(missing()).stderr).not.toContain(ESC);
    });

    it('colours with FORCE_COLOR=1 even when not a terminal', () => {
      expect(cmv(missing(), { FORCE_COLOR: '1' }).stderr).toContain(ESC);
      expect(cmv(['stats', sessionPath], { FORCE_COLOR: '1' }).stdout).toContain(ESC);
    });

    it('colours with --color even when not a terminal', () => {
      const run = cmv(['--color', ...missing()]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(ESC);
    });

    it('colours with --color even when NO_COLOR is set (an explicit flag wins, as no-color.org says)', () => {
      for (const args of [
        ['--color', ...missing()],
        [...missing(), '--color'],
      ]) {
        const run = cmv(args, { NO_COLOR: '1' });
        expect(run.code).toBe(3);
        expect(run.stderr).toContain(ESC);
      }
      expect(cmv(['--color', '--no-color', ...missing()], { NO_COLOR: '1' }).stderr).not.toContain(ESC);
    });

    it('prints no colour when NO_COLOR is set and non-empty, even with FORCE_COLOR=1', () => {
      const run = cmv(missing(), { NO_COLOR: '1', FORCE_COLOR: '1' });
      expect(run.code).toBe(3);
      expect(run.stderr).not.toContain(ESC);
      expect(cmv(['stats', sessionPath], { NO_COLOR: 'yes', FORCE_COLOR: '1' }).stdout).not.toContain(ESC);
    });

    it('ignores an empty NO_COLOR', () => {
      expect(cmv(missing(), { NO_COLOR: '', FORCE_COLOR: '1' }).stderr).toContain(ESC);
    });

    it('prints no colour with --no-color, even with FORCE_COLOR=1, before or after the command', () => {
      expect(cmv(['--no-color', ...missing()], { FORCE_COLOR: '1' }).stderr).not.toContain(ESC);
      const after = cmv(['stats', sessionPath, '--no-color'], { FORCE_COLOR: '1' });
      expect(after.code).toBe(0);
      expect(after.stdout).not.toContain(ESC);
    });

    it('never colours JSON', () => {
      const run = cmv(['stats', sessionPath, '--json'], { FORCE_COLOR: '1' });
      expect(run.stdout).not.toContain(ESC);
      expect(() => JSON.parse(run.stdout)).not.toThrow();
    });
  });
});
