import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveLine, derivedTag } from '../../src/session/derived.js';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { branchSnapshot, branchPath } from '../../src/store/branch.js';
import { readMeta } from '../../src/store/read-meta.js';
import { findClaude, launchCommand, resumeCommand } from '../../src/store/launch.js';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { projectFolderName } from '../../src/session/locate.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';
import { git, installSession, relocate, sandbox, SESSION_A, type Sandbox } from './helpers.js';

const OLD = new Date(Date.now() + 10 * 60 * 1000);
const coding = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'));
let box: Sandbox;
let project: string;
let sessionPath: string;

beforeEach(async () => {
  box = await sandbox();
  project = join(box.root, 'project');
  mkdirSync(project);
  git(project, 'init', '-q', '-b', 'main');
  mkdirSync(join(project, 'tally'));
  mkdirSync(join(project, 'tests'));
  for (const f of ['tally/model.py', 'tally/report.py', 'tests/test_report.py', 'other.txt']) writeFileSync(join(project, f), `${f}\n`);
  git(project, 'add', '.');
  git(project, 'commit', '-q', '-m', 'start');
  sessionPath = installSession(box, project, SESSION_A, relocate(coding, SESSION_A, project));
});
afterEach(() => box.cleanup());

function sessionIdsOf(path: string): Set<string> {
  return new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).sessionId)
      .filter(Boolean),
  );
}

describe('branchSnapshot', () => {
  it('writes a new, trimmed session in the project folder of the first config dir, every sessionId rewritten', async () => {
    await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    const before = readFileSync(sessionPath);
    const result = await branchSnapshot(box.store, 'work', { env: box.env });
    expect(result.path).toBe(join(box.configDir, 'projects', projectFolderName(project), `${result.sessionId}.jsonl`));
    expect(result.sessionId).not.toBe(SESSION_A);
    expect(sessionIdsOf(result.path)).toEqual(new Set([result.sessionId]));
    expect(result.trimmed).toBe(true);
    expect(result.bytes.after).toBeLessThan(result.bytes.before);
    expect(result.resumeCommand).toBe(`cd ${project} && claude --resume ${result.sessionId}`);
    expect(result.name).toBe('work-branch-1');
    // Every user and assistant text of the snapshot is in the branch, in order.
    const texts = (p: string) => openSession(p).then((s) => sentTexts(s).map((t) => `${t.role}:${t.text}`));
    expect(await texts(result.path)).toEqual(await texts(sessionPath));
    // The session the snapshot came from is untouched.
    expect(readFileSync(sessionPath).equals(before)).toBe(true);
    const meta = await readMeta(box.store, result.id);
    expect(meta).toMatchObject({ kind: 'branch', branch: { trimmed: true, sessionPath: result.path, from: { name: 'work' } } });
    expect(meta.branch?.trim?.removed.thinkingBlocks).toBeGreaterThan(0);
  });

  it('keeps the log whole with trim off, changing only the session ids and marking its responses as copies', async () => {
    await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    const result = await branchSnapshot(box.store, 'work', { trim: false, env: box.env });
    const original = readFileSync(sessionPath, 'utf8').split(SESSION_A).join(result.sessionId);
    const mark = { by: 'branch' as const, from: SESSION_A, tag: derivedTag(result.sessionId) };
    const expected = original
      .split('\n')
      .map((line) => deriveLine(Buffer.from(line), mark).toString('utf8'))
      .join('\n');
    expect(readFileSync(result.path, 'utf8')).toBe(expected);
    expect(expected).not.toBe(original);
    expect(result.trimmed).toBe(false);
  });

  it('remembers the branched session: its next snapshot links to the branch point', async () => {
    const snap = await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    const branch = await branchSnapshot(box.store, 'work', { name: 'retry', trim: false, env: box.env });
    appendFileSync(
      branch.path,
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'go on' }, uuid: '99999999-0000-4000-8000-000000000001', parentUuid: null, sessionId: branch.sessionId, cwd: project })}\n`,
    );
    const later = await takeSnapshot(box.store, branch.path, { now: OLD });
    expect(later.parent).toBe(branch.id);
    expect(later.growth).toBe('append');
    // Only the page the appended line landed on is new: the rest is shared with the branch.
    expect(later.newPages).toBe(1);
    expect(later.pages).toBeGreaterThan(1);
    expect(branch.from.id).toBe(snap.id);
  });

  it('warns when files the session read or changed differ in the project now', async () => {
    await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    const quiet = await branchSnapshot(box.store, 'work', { env: box.env });
    expect(quiet.drift.changedFiles).toEqual([]);
    expect(quiet.warnings).toEqual([]);
    const meta = await readMeta(box.store, quiet.from.id);
    const touched = [...meta.facts.files.read, ...meta.facts.files.changed].map((f) => f.slice(project.length + 1)).filter((f) => existsSync(join(project, f)));
    expect(touched.length).toBeGreaterThan(0);
    writeFileSync(join(project, touched[0]), 'changed since\n');
    writeFileSync(join(project, 'other.txt'), 'not read by the session\n');
    const moved = await branchSnapshot(box.store, 'work', { env: box.env });
    expect(moved.drift.changedFiles).toEqual([touched[0]]);
    expect(moved.warnings.join()).toMatch(/moved on since the snapshot: 1 file/);
    git(project, 'commit', '-qam', 'more');
    const committed = await branchSnapshot(box.store, 'work', { env: box.env });
    expect(committed.drift.head?.then).toBe(meta.project?.head);
    expect(committed.drift.changedFiles).toContain(touched[0]);
  });

  it('with --project-dir, finds the drift in the project where it lives now (a moved checkout)', async () => {
    await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    const meta = await readMeta(box.store, (await branchSnapshot(box.store, 'work', { env: box.env })).from.id);
    const touched = [...meta.facts.files.read, ...meta.facts.files.changed].map((f) => f.slice(project.length + 1)).filter((f) => existsSync(join(project, f)));
    expect(touched.length).toBeGreaterThan(0);
    // The checkout moves, and one of the session's files changes there.
    const movedTo = join(box.root, 'moved', 'checkout');
    mkdirSync(dirname(movedTo));
    renameSync(project, movedTo);
    writeFileSync(join(movedTo, touched[0]), 'changed since\n');
    const lost = await branchSnapshot(box.store, 'work', { env: box.env });
    expect(lost.drift.changedFiles).toEqual([]);
    expect(lost.drift.unchecked).toMatch(/no longer exists/);
    const found = await branchSnapshot(box.store, 'work', { env: box.env, projectDir: movedTo });
    expect(found.drift.unchecked).toBeUndefined();
    expect(found.drift.changedFiles).toEqual([touched[0]]);
    expect(found.warnings.join()).toMatch(/moved on since the snapshot: 1 file/);
    await expect(branchSnapshot(box.store, 'work', { env: box.env, projectDir: join(box.root, 'nowhere') })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('forks at a message with --at: the branch ends with that message, trimmed, its lineage recorded', async () => {
    await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    const texts = (p: string) => openSession(p).then((s) => sentTexts(s).map((t) => `${t.role}:${t.text}`));
    const all = await texts(sessionPath);
    // The assistant's last text of the first turn (line 77 of the sample), by a prefix of its uuid.
    const result = await branchSnapshot(box.store, 'work', { at: '9728d7a3', env: box.env });
    expect(result.at).toEqual({ uuid: expect.stringMatching(/^9728d7a3-/), line: 77, linesKept: 77, linesBefore: 89 });
    expect(result.trimmed).toBe(true);
    const forked = await texts(result.path);
    expect(forked).toEqual(all.slice(0, forked.length));
    expect(forked.length).toBeLessThan(all.length);
    expect(forked.at(-1)).toMatch(/^assistant:/);
    expect(forked.join('\n')).not.toContain('commit it please');
    const meta = await readMeta(box.store, result.id);
    expect(meta.branch?.at).toEqual(result.at);
    expect(meta.branch?.from.name).toBe('work');
  });

  it('forks after the tool results that answer the chosen response, so no call is left unanswered', async () => {
    await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    // Line 12: a text, then two tool calls of the same response, answered on lines 15 and 16.
    const result = await branchSnapshot(box.store, 'work', { at: 'ba9b2a49', trim: false, env: box.env });
    expect(result.at).toMatchObject({ line: 12, linesKept: 16 });
    const session = await openSession(result.path);
    const calls = session.conversation.entries.flatMap((e) => e.blocks.filter((b) => b.type === 'tool_use').map((b) => b.toolId));
    const results = new Set(session.conversation.entries.flatMap((e) => e.blocks.filter((b) => b.type === 'tool_result').map((b) => b.toolId)));
    expect(calls.every((id) => results.has(id))).toBe(true);
  });

  it('refuses --at for a message the log does not hold, or a prefix that names several', async () => {
    await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    await expect(branchSnapshot(box.store, 'work', { at: 'deadbeef', env: box.env })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(branchSnapshot(box.store, 'work', { at: 'ab', env: box.env })).rejects.toMatchObject({ code: 'USAGE' });
  });

  it('refuses names that are taken and snapshots that do not exist', async () => {
    await takeSnapshot(box.store, sessionPath, { name: 'work', now: OLD });
    await expect(branchSnapshot(box.store, 'work', { name: 'work', env: box.env })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(branchSnapshot(box.store, 'wrok', { env: box.env })).rejects.toMatchObject({ code: 'NOT_FOUND', hint: expect.stringContaining('"work"') });
  });

  it('never places a session outside the Claude projects folder', () => {
    const path = branchPath('/../../etc', SESSION_A, box.env);
    expect(dirname(dirname(path))).toBe(join(box.configDir, 'projects'));
  });
});

describe('launch', () => {
  it('builds `claude --resume <id>` in the project folder, from PATH or the configured binary', () => {
    const bin = join(box.root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\n');
    chmodSync(join(bin, 'claude'), 0o755);
    const env = { ...box.env, PATH: `${bin}:/usr/bin` };
    expect(launchCommand(project, SESSION_A, env)).toEqual({ command: join(bin, 'claude'), args: ['--resume', SESSION_A], cwd: project });
    expect(findClaude(env, join(bin, 'claude'))).toBe(join(bin, 'claude'));
    expect(findClaude({ ...env, PATH: '/nonexistent' })).toBeUndefined();
    const local = join(box.configDir, 'local');
    mkdirSync(local);
    writeFileSync(join(local, 'claude'), '#!/bin/sh\n');
    chmodSync(join(local, 'claude'), 0o755);
    expect(findClaude({ ...env, PATH: '/nonexistent' })).toBe(join(local, 'claude'));
    expect(() => launchCommand(join(box.root, 'gone'), SESSION_A, env)).toThrow(/does not exist/);
    expect(() => launchCommand(project, SESSION_A, { ...env, PATH: '/nonexistent', CLAUDE_CONFIG_DIR: join(box.root, 'none') })).toThrow(/cannot find the claude command/);
    expect(resumeCommand("/home/me/it's here", SESSION_A)).toBe(`cd '/home/me/it'\\''s here' && claude --resume ${SESSION_A}`);
  });
});
