// `cmv branch`: a snapshot becomes a new Claude Code session in its project's folder (new uuid,
// every sessionId rewritten, trimmed unless asked not to, the snapshot's resume block in front if
// asked). The branch is recorded as a commit on top of the snapshot, and remembered, so a later
// snapshot of the new session links to it.

import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import type { Store } from './store.js';
import { maintain, withStoreLock } from './store.js';
import { resolveSnapshot, listNames, nameTaken, updateRefs, ZERO_ID } from './refs.js';
import { readLog } from './objects.js';
import { readMeta } from './read-meta.js';
import { paginate, PAGE_FORMAT } from './pages.js';
import { beginPages, writeCommit } from './commit.js';
import { factsOf, sessionOfBuffer, storedFacts } from './session-facts.js';
import { withSessionId } from './session-id.js';
import { projectDrift, type ProjectDrift } from './project-state.js';
import { resumeCommand } from './launch.js';
import { checkName, refOf, sessionRef } from './names.js';
import { graphOrRebuilt, readStoredGraphs } from './stored-graph.js';
import { withResumeBlock } from './resume-branch.js';
import { cmvVersion } from '../version.js';
import type { BranchInfo, SnapshotMeta } from './meta.js';
import { claudeConfigDirs, projectDir } from '../session/locate.js';
import { writeFileAtomic } from '../session/write.js';
import { copySideFiles } from '../session/side-files.js';
import { alive } from '../lock.js';
import { sessionBytes, type Session } from '../session/session.js';
import type { ResumeTier } from '../graph/resume-block.js';
import { trimSession } from '../trim/trim.js';
import type { TrimOptions } from '../trim/options.js';
import { CmvError } from '../errors.js';
import { deriveLine, derivedTag, type DerivedMark } from '../session/derived.js';
import { cutAt } from '../session/cut-at.js';

/** The first `lines` lines of a log, each with its newline. */
function cutLog(log: Buffer, lines: number): Buffer {
  let end = 0;
  for (let n = 0; n < lines; n++) {
    const next = log.indexOf(0x0a, end);
    if (next === -1) return log;
    end = next + 1;
  }
  return log.subarray(0, end);
}

export interface BranchOptions {
  name?: string;
  /** Trim the branch (default true). */
  trim?: boolean;
  trimOptions?: Partial<TrimOptions>;
  /** Put the snapshot's resume block in front of the branched session (after the trim). */
  resume?: { tier?: ResumeTier };
  /** Fork at this message (uuid or unique prefix): the branch ends with it, as `claude --resume-session-at` would. */
  at?: string;
  /** The session's project lives here now (`--project-dir`): the trim's disk checks and the drift warning look there. */
  projectDir?: string;
  now?: Date;
  env?: NodeJS.ProcessEnv;
}

export interface BranchResult {
  name: string;
  id: string;
  sessionId: string;
  path: string;
  cwd: string;
  trimmed: boolean;
  resumeCommand: string;
  from: { id: string; name?: string };
  bytes: { before: number; after: number };
  tokens?: { before: number; after: number };
  /** The resume block put in front, with --with-resume. */
  resume?: NonNullable<BranchInfo['resume']> & { text: string };
  /** Where the branch was forked, with --at. */
  at?: NonNullable<BranchInfo['at']>;
  drift: ProjectDrift;
  warnings: string[];
}

/** Branches begun and not yet named in the store: `<store>/unfinished-branches/<sessionId>.json`. */
function unfinishedDir(store: Store): string {
  return join(store.dir, 'unfinished-branches');
}

async function markUnfinished(store: Store, sessionId: string, path: string): Promise<string> {
  await mkdir(unfinishedDir(store), { recursive: true });
  const marker = join(unfinishedDir(store), `${sessionId}.json`);
  await writeFile(marker, JSON.stringify({ path, pid: process.pid, host: hostname() }));
  return marker;
}

/**
 * Removes the session files of branches whose process died before the store named them (a kill
 * between writing the file and committing): nothing ever announced them, and no name reaches them.
 */
export async function sweepUnfinishedBranches(store: Store): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(unfinishedDir(store));
  } catch {
    return removed;
  }
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const marker = join(unfinishedDir(store), name);
    let owner: { path?: unknown; pid?: unknown; host?: unknown };
    try {
      owner = JSON.parse(await readFile(marker, 'utf8'));
    } catch {
      owner = {};
    }
    if (owner.host === hostname() && typeof owner.pid === 'number' && alive(owner.pid)) continue;
    if (typeof owner.path === 'string' && owner.path.endsWith(`${name.slice(0, -5)}.jsonl`)) {
      await rm(owner.path, { force: true });
      removed.push(owner.path);
    }
    await rm(marker, { force: true });
  }
  return removed;
}

/** Where the new session goes: the project folder of its cwd under the first Claude config dir. */
export function branchPath(cwd: string, sessionId: string, env: NodeJS.ProcessEnv = process.env): string {
  const configDir = claudeConfigDirs(env)[0];
  const projects = resolve(configDir, 'projects');
  const path = resolve(projectDir(configDir, cwd), `${sessionId}.jsonl`);
  if (!path.startsWith(projects + sep)) throw new CmvError('BAD_INPUT', `refusing to write a session outside ${projects}`, { hint: 'the snapshot names an unsafe project folder' });
  return path;
}

interface Materialised {
  content: Buffer;
  /** The model of `content`, when one was made (a trim makes one; a whole log is copied unmodelled). */
  session?: Session;
  trim?: BranchInfo['trim'];
  tokens?: { before: number; after: number };
  resume?: BranchResult['resume'];
}

async function trimmedContent(log: Buffer, sessionId: string, options: Partial<TrimOptions>, projectDir?: string): Promise<Materialised> {
  const dir = await mkdtemp(join(tmpdir(), 'cmv-branch-'));
  try {
    const input = join(dir, 'snapshot.jsonl');
    await writeFile(input, log, { mode: 0o600 });
    const result = await trimSession(input, options, { newSessionId: sessionId, fileHoldsOnDisk: true, projectDir, derive: { by: 'branch', tag: derivedTag(sessionId) } });
    if (!result.verify.ok) {
      throw new CmvError('VERIFY_FAILED', `the trimmed branch failed verification (${result.verify.faults.length} faults); nothing was written`, {
        hint: `first fault: ${result.verify.faults[0]?.message ?? '?'}; branch with --no-trim to keep the log whole`,
        details: result.verify,
      });
    }
    if (result.budget && !result.budget.met) {
      throw new CmvError('BUDGET_UNMET', `cannot fit the branch into ${result.budget.budget} tokens (${result.budget.tokensAfter} remain); nothing was written`, {
        hint: 'raise --budget, or drop it',
        details: result.budget,
      });
    }
    if (!result.lines) throw new CmvError('INTERNAL', 'the trim did not return the trimmed lines');
    const content = Buffer.concat(result.lines.flatMap((line) => [line, Buffer.from('\n')]));
    return {
      content,
      session: result.trimmed,
      trim: { options: { ...options }, removed: { ...result.removed }, tokensBefore: result.input.tokens, tokensAfter: result.output.tokens, bytesBefore: log.length },
      tokens: { before: result.input.tokens, after: result.output.tokens },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A whole log as a copy: its responses marked so (session/derived.ts), every other line as it was. */
function derivedContent(log: Buffer, mark: DerivedMark): Buffer {
  const out: Buffer[] = [];
  let start = 0;
  while (start < log.length) {
    let end = log.indexOf(0x0a, start);
    if (end < 0) end = log.length;
    out.push(deriveLine(log.subarray(start, end), mark));
    if (end < log.length) out.push(NEWLINE);
    start = end + 1;
  }
  return Buffer.concat(out);
}

const NEWLINE = Buffer.from('\n');

interface SnapshotLog {
  id: string;
  meta: SnapshotMeta;
  log: Buffer;
}

/** The branch's content with the snapshot's resume block in front of it. */
async function resumedContent(store: Store, snapshot: SnapshotLog, made: Materialised, tier?: ResumeTier): Promise<Materialised> {
  const path = snapshot.meta.source.path;
  const session = made.session ?? sessionOfBuffer(path, made.content);
  // The snapshot's own graph, of its whole log rather than the trimmed copy; for a snapshot
  // stored without one, rebuilt (from the model just made when the log was copied whole).
  const stored = (await readStoredGraphs(store, [snapshot.id])).get(snapshot.id);
  const { graph } = graphOrRebuilt(stored, () => (made.trim ? sessionOfBuffer(path, snapshot.log) : session));
  const resumed = withResumeBlock(session, graph, { tier, transcriptPath: existsSync(path) ? path : undefined });
  const block = { tier: tier ?? 'standard', tokens: resumed.tokens, summaryUuid: resumed.summaryUuid, text: resumed.text };
  return { ...made, content: sessionBytes(resumed.session), session: resumed.session, resume: block };
}

export async function branchSnapshot(store: Store, arg: string, options: BranchOptions = {}): Promise<BranchResult> {
  if (options.name !== undefined) checkName(options.name);
  const env = options.env ?? process.env;
  const movedTo = options.projectDir === undefined ? undefined : resolve(options.projectDir);
  if (movedTo !== undefined && !existsSync(movedTo))
    throw new CmvError('NOT_FOUND', `--project-dir ${options.projectDir}: no such folder`, { hint: "give the folder the session's project lives in now" });
  const from = await resolveSnapshot(store, arg);
  const source = await readMeta(store, from.id);
  const cwd = source.source.cwd ?? source.facts.cwd;
  if (!cwd) throw new CmvError('BAD_INPUT', `snapshot ${arg} does not say which project folder its session ran in`, { hint: 'only sessions with a cwd can be resumed by Claude Code' });
  const sessionId = randomUUID();
  const path = branchPath(cwd, sessionId, env);
  const whole = await readLog(store.git, from.id);
  const at = options.at === undefined ? undefined : cutAt(sessionOfBuffer(source.source.path, whole), options.at);
  const log = at ? cutLog(whole, at.linesKept) : whole;
  const trim = options.trim !== false;
  let made: Materialised = trim
    ? await trimmedContent(log, sessionId, options.trimOptions ?? {}, movedTo)
    : { content: derivedContent(withSessionId(log, sessionId), { by: 'branch', from: source.facts.sessionId, tag: derivedTag(sessionId) }) };
  if (options.resume) made = await resumedContent(store, { id: from.id, meta: source, log }, made, options.resume.tier);
  // The new session is written first: the store never names a branch whose file was not written.
  // A marker says so until the store names it: a branch killed in between is undone by the next.
  await sweepUnfinishedBranches(store);
  const marker = await markUnfinished(store, sessionId, path);
  await writeFileAtomic(path, [made.content]);
  // Its subagent transcripts and persisted outputs, when the snapshotted session is on this machine.
  if (source.source.path) await copySideFiles(source.source.path, join(dirname(path), sessionId)).catch(() => []);

  const now = options.now ?? new Date();
  const result = await withStoreLock(store, async () => {
    const taken = new Set((await listNames(store)).map((n) => n.name));
    const base = from.named?.name ?? source.name;
    let name = options.name;
    if (name !== undefined && taken.has(name)) throw nameTaken(name);
    for (let n = 1; name === undefined; n++) if (!taken.has(`${base}-branch-${n}`)) name = `${base}-branch-${n}`;
    const pages = paginate(made.content);
    const write = await beginPages(store, made.content, pages);
    const facts = made.session ? { ...storedFacts(factsOf(made.session)), bytes: made.content.length } : { ...source.facts, bytes: made.content.length, sessionId };
    const meta: SnapshotMeta = {
      format: 1,
      kind: 'branch',
      name,
      tags: [],
      createdAt: now.toISOString(),
      cmvVersion: cmvVersion(),
      pageFormat: PAGE_FORMAT,
      source: { sessionId, path, cwd },
      facts,
      project: source.project,
      growth: 'rewrite',
      branch: {
        from: { id: from.id, name: from.named?.name },
        trimmed: trim,
        trim: made.trim,
        resume: made.resume && { tier: made.resume.tier, tokens: made.resume.tokens, summaryUuid: made.resume.summaryUuid },
        at: at && { uuid: at.uuid, line: at.line + 1, linesKept: at.linesKept, linesBefore: at.linesBefore },
        sessionPath: path,
      },
    };
    await write.done();
    const { commit } = await writeCommit(
      store,
      pages.map((p) => p.id),
      meta,
      [from.id],
    );
    const updates = [{ ref: refOf('branch', name), id: commit, old: ZERO_ID }];
    const lineage = sessionRef(sessionId);
    if (lineage) updates.push({ ref: lineage, id: commit, old: ZERO_ID });
    await updateRefs(store, updates, `cmv branch ${name}`);
    await maintain(store);
    return { name, commit };
  });
  await rm(marker, { force: true });

  const drift = await projectDrift(source.project, [...source.facts.files.read, ...source.facts.files.changed], movedTo);
  const warnings: string[] = [];
  if (!existsSync(cwd)) warnings.push(`the project folder ${cwd} does not exist on this machine: Claude Code resumes the session only from there`);
  if (drift.changedFiles.length > 0) {
    const shown = drift.changedFiles.slice(0, 8).join(', ');
    warnings.push(`the project moved on since the snapshot: ${drift.changedFiles.length} file(s) the session read or changed differ now: ${shown}${drift.changedFiles.length > 8 ? ', ...' : ''}`);
  } else if (drift.head) {
    warnings.push(`the project's HEAD moved since the snapshot (${drift.head.then.slice(0, 12)} → ${drift.head.now?.slice(0, 12) ?? 'none'}), though no file the session touched changed`);
  }
  return {
    name: result.name,
    id: result.commit,
    sessionId,
    path,
    cwd,
    trimmed: trim,
    resumeCommand: resumeCommand(cwd, sessionId),
    from: { id: from.id, name: from.named?.name },
    bytes: { before: whole.length, after: made.content.length },
    tokens: made.tokens,
    resume: made.resume,
    at: at && { uuid: at.uuid, line: at.line + 1, linesKept: at.linesKept, linesBefore: at.linesBefore },
    drift,
    warnings,
  };
}
