// The project's git state a snapshot records: HEAD, branch and the paths with uncommitted changes,
// read with two git processes, as simple-git's five calls read it before.

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simpleGit } from 'simple-git';
import { readProjectState } from '../../src/store/project-state.js';
import { git } from './helpers.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cmv-project-state-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function repo(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

describe('readProjectState', () => {
  it('reads HEAD, branch and every changed path as git status does: renames, spaces, untracked folders, from a subfolder', async () => {
    const dir = repo('app');
    for (const f of ['a.txt', 'b.txt', 'keep.txt']) writeFileSync(join(dir, f), `${f}\n`);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'one');
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    git(dir, 'mv', 'b.txt', 'c d.txt');
    mkdirSync(join(dir, 'sub', 'deep'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'deep', 'new file.txt'), 'new\n');
    writeFileSync(join(dir, 'staged.txt'), 'staged\n');
    git(dir, 'add', 'staged.txt');
    const state = await readProjectState(join(dir, 'sub'));
    const expected = (await simpleGit({ baseDir: dir }).status()).files.map((f) => f.path).sort();
    expect(state).toEqual({ root: dir, head: git(dir, 'rev-parse', 'HEAD').trim(), branch: 'main', dirty: expected });
    expect(state!.dirty).toEqual(['a.txt', 'c d.txt', 'staged.txt', 'sub/deep/new file.txt']);
  });

  it('has no HEAD before the first commit, no branch when detached, and no state outside a repository', async () => {
    const fresh = repo('fresh');
    writeFileSync(join(fresh, 'x.txt'), 'x\n');
    expect(await readProjectState(fresh)).toEqual({ root: fresh, head: undefined, branch: 'main', dirty: ['x.txt'] });
    git(fresh, 'add', '.');
    git(fresh, 'commit', '-q', '-m', 'one');
    git(fresh, 'checkout', '-q', '--detach');
    expect(await readProjectState(fresh)).toEqual({ root: fresh, head: git(fresh, 'rev-parse', 'HEAD').trim(), branch: undefined, dirty: [] });
    const plain = join(root, 'plain');
    mkdirSync(plain);
    expect(await readProjectState(plain)).toBeNull();
    expect(await readProjectState(join(root, 'gone'))).toBeNull();
    expect(await readProjectState(join(fresh, '.git'))).toBeNull();
  });
});
