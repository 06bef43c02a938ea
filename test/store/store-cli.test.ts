// The store's commands as a user runs them: one JSON document on stdout with --json, messages
// on stderr, clear errors with hints, and the exit codes of the README.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { git, installSession, sandbox, SESSION_A, type Sandbox } from './helpers.js';
import { buildIfStale, runCmv } from '../helpers/built-cli.js';

/** cmv as the store's tests run it: this process's environment, colour off. */
const cmvSync = (args: string[], env: NodeJS.ProcessEnv) => runCmv(args, { ...env, NO_COLOR: '1' });

let box: Sandbox;
let path: string;

beforeAll(async () => {
  await buildIfStale();
  box = await sandbox();
  path = installSession(box, '/tmp/cmv-samples/tally', SESSION_A, readFileSync(join(SAMPLE_DIR, 'coding.jsonl')));
}, 120_000);
afterAll(() => box.cleanup());

const json = (args: string[]) => {
  const run = cmvSync([...args, '--json'], box.env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

describe('store commands', () => {
  it('snapshot --json prints the fields other tools read, and only JSON', () => {
    const result = json(['snapshot', SESSION_A.slice(0, 6), '-n', 'cli-one', '-m', 'first', '-t', 'a,b']);
    expect(Object.keys(result)).toEqual(expect.arrayContaining(['name', 'id', 'parent', 'sessionId', 'lines', 'bytes', 'newBytes']));
    expect(result).toMatchObject({ name: 'cli-one', parent: null, sessionId: SESSION_A });
  });

  it('branch --json prints the fields other tools read and writes the session where it says', () => {
    const result = json(['branch', 'cli-one', '-n', 'cli-lean']);
    expect(Object.keys(result)).toEqual(expect.arrayContaining(['name', 'id', 'sessionId', 'path', 'trimmed', 'resumeCommand']));
    expect(result.trimmed).toBe(true);
    expect(result.path.startsWith(join(box.configDir, 'projects'))).toBe(true);
    expect(readFileSync(result.path, 'utf8')).toContain(result.sessionId);
    expect(result.resumeCommand).toBe(`cd /tmp/cmv-samples/tally && claude --resume ${result.sessionId}`);
  });

  it('list, log, tree, show, diff and fsck answer in JSON', () => {
    expect(json(['list']).map((i: { name: string }) => i.name)).toEqual(['cli-one', 'cli-lean']);
    expect(json(['log', 'cli-lean']).map((e: { names: string[] }) => e.names[0])).toEqual(['cli-lean', 'cli-one']);
    expect(json(['tree']).nodes.length).toBe(2);
    expect(json(['show', 'cli-one']).children.length).toBe(1);
    expect(json(['diff', 'cli-one', 'cli-lean']).tokens.delta).toBeLessThan(0);
    expect(json(['fsck'])).toMatchObject({ ok: true, problems: [] });
  });

  it('draws the tree and lists snapshots as text', () => {
    const tree = cmvSync(['tree'], box.env);
    expect(tree.stdout).toMatch(/^\* .*cli-lean.*trimmed branch/m);
    expect(tree.stdout).toMatch(/^\* .*cli-one.*snapshot/m);
    expect(cmvSync(['list'], box.env).stdout).toMatch(/cli-lean\s+branch of cli-one \(trimmed\)/);
  });

  it('says which name was meant when a name is mistyped, with exit code 3', () => {
    const run = cmvSync(['show', 'cli-onr'], box.env);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no snapshot or branch named "cli-onr"');
    expect(run.stderr).toContain('did you mean "cli-one"?');
  });

  it('refuses a name clash with exit code 8 and a missing session with exit code 3', () => {
    const clash = cmvSync(['snapshot', path, '-n', 'cli-one'], box.env);
    expect(clash.code).toBe(8);
    expect(clash.stderr).toMatch(/already exists[\s\S]*hint:/);
    const missing = cmvSync(['snapshot', join(box.root, 'nope.jsonl')], box.env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('no such file');
  });

  it('refuses a store folder that is not a cmv store', () => {
    const home = join(box.root, 'foreign');
    mkdirSync(join(home, 'store'), { recursive: true });
    git(join(home, 'store'), 'init', '-q');
    writeFileSync(join(home, 'store', 'x'), '');
    const run = cmvSync(['list'], { ...box.env, CMV_HOME: home });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('is not a cmv snapshot store');
    expect(run.stderr).toContain('hint:');
  });

  it('says git is missing when it is not on PATH', () => {
    const run = cmvSync(['list'], { ...box.env, PATH: join(box.root, 'empty-bin') });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('git is not installed or not on PATH');
    expect(run.stderr).toContain('hint: cmv keeps snapshots in a git repository');
  });

  it('stores the session graph, diffs it, and puts the resume block in front of a branch', () => {
    const grown = json(['snapshot', path, '-n', 'cli-graph']);
    expect(grown.graph.nodes).toBeGreaterThan(0);
    const diff = json(['diff', 'cli-lean', 'cli-graph']).graph;
    expect(Object.keys(diff)).toEqual(expect.arrayContaining(['added', 'removed', 'statusChanged', 'same', 'source']));
    expect(diff.source).toEqual({ a: 'rebuilt', b: 'stored' });
    expect(cmvSync(['diff', 'cli-one', 'cli-graph'], box.env).stdout).toMatch(/^ {2}graph: unchanged$/m);
    const branch = json(['branch', 'cli-graph', '-n', 'cli-resumed', '--with-resume', '--tier', 'critical']);
    expect(branch.resume).toMatchObject({ tier: 'critical', text: expect.stringContaining('Goal') });
    expect(JSON.parse(readFileSync(branch.path, 'utf8').split('\n')[1]).message.content).toContain(branch.resume.text);
    const lone = cmvSync(['branch', 'cli-graph', '--tier', 'critical'], box.env);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('--tier goes with --with-resume');
    expect(cmvSync(['branch', 'cli-graph', '--with-resume', '--tier', 'huge'], box.env).code).toBe(2);
  });

  it('exits 6 from fsck when the store is damaged', () => {
    git(box.store.dir, 'repack', '-a', '-d', '-q');
    expect(git(box.store.dir, 'count-objects', '-v')).toContain('packs: 1');
    const packDir = join(box.store.dir, 'objects', 'pack');
    const file = join(
      packDir,
      readdirSync(packDir).find((f) => f.endsWith('.pack'))!,
    );
    const data = readFileSync(file);
    data.write('damage!!', Math.floor(data.length / 2));
    chmodSync(file, 0o644); // git writes packs read-only
    writeFileSync(file, data);
    const run = cmvSync(['fsck'], box.env);
    expect(run.code).toBe(6);
    expect(run.stdout).toMatch(/problem/);
  });

  it("starts every store command's help with examples", () => {
    for (const command of ['snapshot', 'branch', 'list', 'log', 'tree', 'show', 'diff', 'rm', 'gc', 'fsck', 'export', 'import', 'push', 'pull', 'remote']) {
      const run = cmvSync([command, '--help'], box.env);
      expect(run.code, command).toBe(0);
      expect(run.stdout.startsWith('Examples:'), command).toBe(true);
    }
  });
});
