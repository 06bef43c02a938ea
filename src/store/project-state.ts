// The project a session worked in, as git sees it: read at snapshot time (HEAD, branch, dirty
// files) and again at branch time, to warn when files the session read or changed differ now.

import { existsSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { simpleGit } from 'simple-git';
import { cleanGitEnv } from './git.js';
import type { ProjectState } from './meta.js';

function projectGit(cwd: string) {
  return simpleGit({ baseDir: cwd, trimmed: true }).env(cleanGitEnv());
}

const MAX_DIRTY = 500;

/**
 * HEAD, branch and changed paths from `git status --porcelain=v2 --branch -z` (paths relative to
 * the repository's root; a rename is listed under its new path, as simple-git's status did).
 */
export function parseStatus(out: string): { head?: string; branch?: string; paths: string[] } {
  const tokens = out.split('\0');
  let head: string | undefined;
  let branch: string | undefined;
  const paths: string[] = [];
  // Fields before the path: ordinary changes (1), renames and copies (2, then the old path), unmerged (u).
  const fieldsBefore: Record<string, number> = { '1': 8, '2': 9, u: 10, '?': 1 };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.startsWith('# branch.oid ')) {
      const oid = token.slice('# branch.oid '.length);
      head = oid === '(initial)' ? undefined : oid;
    } else if (token.startsWith('# branch.head ')) {
      const name = token.slice('# branch.head '.length);
      branch = name === '(detached)' ? undefined : name;
    } else if (fieldsBefore[token[0]] !== undefined && token[1] === ' ') {
      let at = 0;
      for (let f = 0; f < fieldsBefore[token[0]] && at >= 0; f++) at = token.indexOf(' ', at + 1);
      if (at >= 0) paths.push(token.slice(at + 1));
      if (token[0] === '2') i++; // the old path
    }
  }
  return { head, branch, paths };
}

/** The git state of `cwd`'s repository, or null when cwd is gone or not in a repository. Two git processes, at once. */
export async function readProjectState(cwd: string | undefined): Promise<ProjectState | null> {
  if (!cwd || !existsSync(cwd)) return null;
  try {
    const git = simpleGit({ baseDir: cwd, trimmed: false }).env(cleanGitEnv());
    // Outside a work tree (no repository, a bare one) --show-toplevel fails: null.
    const [top, out] = await Promise.all([git.raw(['rev-parse', '--show-toplevel']), git.raw(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'])]);
    const root = top.trim();
    if (!root) return null;
    const status = parseStatus(out);
    // Capped: a build folder left uncommitted should not weigh on every snapshot.
    const dirty = [...new Set(status.paths)].sort().slice(0, MAX_DIRTY);
    return { root, head: status.head, branch: status.branch, dirty };
  } catch {
    return null;
  }
}

export interface ProjectDrift {
  /** HEAD then and now, when it moved. */
  head?: { then: string; now?: string };
  /** Files the session read or changed that differ from the recorded HEAD now (relative to root). */
  changedFiles: string[];
  /** Why drift could not be checked, if it could not. */
  unchecked?: string;
}

/**
 * Which of the session's files differ now from the snapshot's recorded HEAD (committed or not).
 * `movedTo`: the session's project lives there now (`--project-dir`: a moved checkout, a branch
 * pulled to another machine), so the repository around it is compared, not the recorded root.
 */
export async function projectDrift(state: ProjectState | null, sessionFiles: string[], movedTo?: string): Promise<ProjectDrift> {
  if (!state?.head) return { changedFiles: [], unchecked: state ? 'the project had no commit' : 'the project was not a git repository' };
  const where = movedTo ?? state.root;
  if (!existsSync(where)) return { changedFiles: [], unchecked: `${where} ${movedTo ? 'does not exist' : 'no longer exists'}` };
  try {
    // The session's paths stay relative to the recorded root: the same files of the moved repository.
    const root = movedTo ? (await projectGit(movedTo).revparse(['--show-toplevel'])).trim() : state.root;
    const git = projectGit(root);
    const now = (await git.raw(['rev-parse', '--verify', '--quiet', 'HEAD'])).trim() || undefined;
    const known = (await git.raw(['cat-file', '-t', state.head]).catch(() => '')).trim() === 'commit';
    if (!known) return { head: { then: state.head, now }, changedFiles: [], unchecked: `commit ${state.head.slice(0, 12)} is no longer in the repository` };
    // Tracked changes since the recorded HEAD, committed or in the working tree, plus new files.
    const changed = new Set((await git.raw(['diff', '--name-only', '--no-renames', state.head])).split('\n').filter(Boolean));
    const dirtyThen = new Set(state.dirty);
    for (const file of (await git.raw(['ls-files', '--others', '--exclude-standard'])).split('\n').filter(Boolean)) if (!dirtyThen.has(file)) changed.add(file);
    const relevant = new Set<string>();
    for (const file of sessionFiles) {
      const rel = isAbsolute(file) ? relative(state.root, file) : file;
      if (rel.startsWith('..')) continue;
      if (changed.has(rel)) relevant.add(rel);
    }
    return { head: now !== state.head ? { then: state.head, now } : undefined, changedFiles: [...relevant].sort() };
  } catch (error) {
    return { changedFiles: [], unchecked: `git failed: ${(error as Error).message.split('\n')[0]}` };
  }
}
