// `cmv trim`, `cmv verify` and `cmv restore` through the built CLI: the destinations (new
// session, -o, --in-place with backup, --dry-run), the JSON document, refusals, and exit codes.
// Every run gets its own CLAUDE_CONFIG_DIR and CMV_HOME in a temp dir.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { buildIfStale, runCmv } from '../helpers/built-cli.js';

const SAMPLE = join(SAMPLE_DIR, 'coding.jsonl');
const SAMPLE_CWD = '/tmp/cmv-samples/tally';
const UUID_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface Sandbox {
  root: string;
  configDir: string;
  cmvHome: string;
  projectDir: string;
  /** The sample installed as a session of the sandbox. */
  session: string;
  sessionId: string;
  cmv: (...args: string[]) => Run;
}

beforeAll(() => buildIfStale(), 180_000);

const sandboxes: string[] = [];
afterAll(() => {
  for (const dir of sandboxes) rmSync(dir, { recursive: true, force: true });
});

function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'cmv-trim-cli-'));
  sandboxes.push(root);
  const configDir = join(root, 'claude');
  const cmvHome = join(root, 'cmv-home');
  const projectDir = join(configDir, 'projects', SAMPLE_CWD.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(projectDir, { recursive: true });
  const sessionId = /"sessionId":"([^"]+)"/.exec(readFileSync(SAMPLE, 'utf8'))![1];
  const session = join(projectDir, `${sessionId}.jsonl`);
  copyFileSync(SAMPLE, session);
  const cmv = (...args: string[]): Run => {
    const run = runCmv(args, { HOME: root, CLAUDE_CONFIG_DIR: configDir, CMV_HOME: cmvHome, NO_COLOR: '1' }, { cwd: root });
    return { status: run.code, stdout: run.stdout, stderr: run.stderr };
  };
  return { root, configDir, cmvHome, projectDir, session, sessionId, cmv };
}

function sessionIdsOf(path: string): Set<string> {
  const ids = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as { sessionId?: string };
    if (record.sessionId) ids.add(record.sessionId);
  }
  return ids;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .sort();
}

describe('cmv trim', () => {
  it('prints one JSON document describing the trim with -o and --json', () => {
    const box = sandbox();
    const out = join(box.root, 'trimmed.jsonl');
    const run = box.cmv('trim', box.session, '-o', out, '--json');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const doc = JSON.parse(run.stdout);
    expect(doc.input).toMatchObject({ path: box.session, bytes: statSync(box.session).size });
    expect(doc.input.tokens).toBeGreaterThan(0);
    expect(doc.output).toMatchObject({ path: out, sessionId: box.sessionId, bytes: statSync(out).size });
    expect(doc.output.tokens).toBeGreaterThan(0);
    expect(doc.output.tokens).toBeLessThan(doc.input.tokens);
    expect(doc.reduction.tokens).toBeGreaterThan(0);
    expect(doc.reduction.tokens).toBeLessThan(1);
    expect(doc.reduction.bytes).toBeCloseTo(1 - doc.output.bytes / doc.input.bytes, 3);
    expect(doc.removed.thinkingBlocks).toBeGreaterThan(0);
    expect(doc.verify.ok).toBe(true);
    expect(readFileSync(box.session).equals(readFileSync(SAMPLE))).toBe(true);
  });

  it('writes a new session beside the input by default and prints how to resume it', () => {
    const box = sandbox();
    const run = box.cmv('trim', box.sessionId);
    expect(run.status, run.stderr).toBe(0);
    const created = readdirSync(box.projectDir).filter((f) => f !== `${box.sessionId}.jsonl`);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatch(UUID_FILE);
    const newId = created[0].replace(/\.jsonl$/, '');
    expect(newId).not.toBe(box.sessionId);
    expect(run.stdout).toContain(`claude --resume ${newId}`);
    expect(run.stdout).toContain(`cd ${SAMPLE_CWD} && claude --resume ${newId}`);
    expect(sessionIdsOf(join(box.projectDir, created[0]))).toEqual(new Set([newId]));
    expect(readFileSync(box.session).equals(readFileSync(SAMPLE))).toBe(true);
  });

  it('replaces the log with --in-place after a backup, and cmv restore brings the original bytes back', () => {
    const box = sandbox();
    const original = readFileSync(box.session);
    const run = box.cmv('trim', box.session, '--in-place', '--json');
    expect(run.status, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.output.path).toBe(box.session);
    expect(doc.backup.startsWith(box.cmvHome)).toBe(true);
    expect(readFileSync(doc.backup).equals(original)).toBe(true);
    const trimmed = readFileSync(box.session);
    expect(trimmed.length).toBeLessThan(original.length);
    expect(readdirSync(box.projectDir)).toEqual([`${box.sessionId}.jsonl`]);

    const restore = box.cmv('restore', box.session);
    expect(restore.status, restore.stderr).toBe(0);
    expect(readFileSync(box.session).equals(original)).toBe(true);
  });

  it('writes nothing with --dry-run', () => {
    const box = sandbox();
    const before = filesUnder(box.root);
    const run = box.cmv('trim', box.session, '--dry-run');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('dry run');
    expect(filesUnder(box.root)).toEqual(before);
    expect(readFileSync(box.session).equals(readFileSync(SAMPLE))).toBe(true);
  });

  it('stubs at the configured trim.threshold when --threshold is not given', () => {
    const box = sandbox();
    const stubbed = (...flags: string[]) => {
      const run = box.cmv('trim', box.session, '--dry-run', '--json', ...flags);
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(run.stdout).removed.toolResultsStubbed as number;
    };
    const byDefault = stubbed();
    expect(byDefault).toBeGreaterThan(0);
    mkdirSync(join(box.root, '.config', 'cmv'), { recursive: true });
    writeFileSync(join(box.root, '.config', 'cmv', 'config.json'), JSON.stringify({ 'trim.threshold': 10_000_000 }));
    expect(stubbed()).toBe(0);
    expect(stubbed('--threshold', '300')).toBe(byDefault);
    writeFileSync(join(box.root, '.config', 'cmv', 'config.json'), JSON.stringify({ 'trim.threshold': 'big' }));
    const broken = box.cmv('trim', box.session, '--dry-run');
    expect(broken.status).toBe(4);
    expect(broken.stderr).toContain(join(box.root, '.config', 'cmv', 'config.json'));
    expect(broken.stderr).toContain('cmv config unset trim.threshold');
  });

  it('refuses to overwrite an existing -o file without --force, and overwrites it with --force', () => {
    const box = sandbox();
    const out = join(box.root, 'existing.jsonl');
    writeFileSync(out, 'keep me\n');
    const refused = box.cmv('trim', box.session, '-o', out);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('already exists');
    expect(readFileSync(out, 'utf8')).toBe('keep me\n');

    const forced = box.cmv('trim', box.session, '-o', out, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toBe('keep me\n');
  });
});

describe('paths the user names for output and input', () => {
  it('-o into a folder that does not exist: exit 3, no folder created', () => {
    const box = sandbox();
    const out = join(box.root, 'no', 'such', 'dir', 'out.jsonl');
    for (const args of [
      ['trim', box.session, '-o', out],
      ['compact', box.session, '-o', out],
    ]) {
      const run = box.cmv(...args);
      expect(run.status, args[0]).toBe(3);
      expect(run.stderr, args[0]).toMatch(/the folder .*no\/such\/dir does not exist/);
    }
    expect(existsSync(join(box.root, 'no'))).toBe(false);
  });

  it('-o naming a folder: exit 2, saying it is a folder (not an error about the input)', () => {
    const box = sandbox();
    for (const args of [
      ['trim', box.session, '-o', box.root],
      ['trim', box.session, '-o', box.root, '--force'],
      ['compact', box.session, '-o', box.root],
    ]) {
      const run = box.cmv(...args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(`-o ${box.root} is a folder, not a file`);
    }
  });

  it('analyze of a missing path fails before any report', () => {
    const box = sandbox();
    const run = box.cmv('analyze', box.session, join(box.root, 'missing-folder'));
    expect(run.status).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^cmv: no such file or folder: .*missing-folder/);
  });

  it('analyze --svg onto a file fails before the analysis, with no raw EEXIST', () => {
    const box = sandbox();
    const file = join(box.root, 'plots.svg');
    writeFileSync(file, 'not a folder');
    const run = box.cmv('analyze', box.session, '--svg', file);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('is a file: the plots go into a folder');
    expect(run.stderr).not.toContain('EEXIST');
  });
});

describe('cmv trim of a subagent transcript', () => {
  function subagentTranscript(box: Sandbox): string {
    const dir = join(box.projectDir, box.sessionId, 'subagents');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'agent-a1b2c3d.jsonl');
    const lines = readFileSync(box.session, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    writeFileSync(path, lines.map((l) => JSON.stringify({ ...JSON.parse(l), isSidechain: true, agentId: 'a1b2c3d' })).join('\n') + '\n');
    return path;
  }

  it('makes no new session in the subagents folder and prints no resume command that cannot work', () => {
    const box = sandbox();
    const path = subagentTranscript(box);
    const run = box.cmv('trim', path);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/subagent transcript/);
    expect(run.stderr).toMatch(/hint: .*-o FILE.*--in-place/);
    expect(run.stdout).not.toContain('claude --resume');
    expect(readdirSync(join(box.projectDir, box.sessionId, 'subagents'))).toEqual(['agent-a1b2c3d.jsonl']);
    expect(readdirSync(box.projectDir).filter((n) => n.endsWith('.jsonl'))).toEqual([`${box.sessionId}.jsonl`]);
  });

  it('trims it to a file or in place, with no resume command', () => {
    const box = sandbox();
    const path = subagentTranscript(box);
    const toFile = box.cmv('trim', path, '-o', join(box.root, 'agent-trimmed.jsonl'), '--json');
    expect(toFile.status).toBe(0);
    expect(JSON.parse(toFile.stdout).resumeCommand).toBeNull();
    const inPlace = box.cmv('trim', path, '--in-place', '--json');
    expect(inPlace.status).toBe(0);
    expect(JSON.parse(inPlace.stdout).resumeCommand).toBeNull();
  });
});

describe('cmv verify', () => {
  it('exits 0 for a trimmed log and its original', () => {
    const box = sandbox();
    const out = join(box.root, 'trimmed.jsonl');
    expect(box.cmv('trim', box.session, '-o', out).status).toBe(0);
    const run = box.cmv('verify', box.session, out);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ok: /);
  });

  it('exits 6 and lists the fault for a hand-broken trimmed log', () => {
    const box = sandbox();
    const out = join(box.root, 'trimmed.jsonl');
    expect(box.cmv('trim', box.session, '-o', out).status).toBe(0);
    // Drop the text of the last assistant line that has one.
    const lines = readFileSync(out, 'utf8').split('\n');
    let lost = '';
    for (let i = lines.length - 1; i >= 0 && !lost; i--) {
      if (lines[i].trim() === '') continue;
      const record = JSON.parse(lines[i]);
      const content = record.message?.content;
      if (record.type !== 'assistant' || !Array.isArray(content)) continue;
      const text = content.find((b: { type: string }) => b.type === 'text');
      if (!text) continue;
      lost = text.text;
      text.text = 'Something else entirely.';
      lines[i] = JSON.stringify(record);
    }
    expect(lost).not.toBe('');
    writeFileSync(out, lines.join('\n'));

    const run = box.cmv('verify', box.session, out);
    expect(run.status).toBe(6);
    expect(run.stdout).toContain('FAILED');
    expect(run.stdout).toContain('missing-text');
    expect(run.stdout).toContain(lost.replace(/\s+/g, ' ').slice(0, 40));

    const json = box.cmv('verify', box.session, out, '--json');
    expect(json.status).toBe(6);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.faults.map((f: { kind: string }) => f.kind)).toContain('missing-text');
  });
});
