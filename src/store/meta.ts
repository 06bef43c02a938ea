// meta.json, the description stored beside every snapshot's log: where the session came from,
// what it holds, the project's state at the time and, for branches, what the trim removed.
// `parseMeta` checks a meta read from anywhere (an imported bundle too) before anything trusts it.

import { isAbsolute, normalize } from 'node:path';
import { isUuid, nameProblem, type RefKind } from './names.js';
import type { SessionFactsSummary } from './session-facts.js';
import { CmvError } from '../errors.js';

export const META_FORMAT = 1;

/** Files a snapshot may keep beside meta.json and its pages: the session graph (src/graph/snapshot-graph.ts). */
export const SIDE_FILES = new Set(['graph.json']);

export interface ProjectState {
  /** The repository's top folder. */
  root: string;
  head?: string;
  branch?: string;
  /** Paths (relative to root) with uncommitted changes at snapshot time. */
  dirty: string[];
}

export interface BranchInfo {
  /** The snapshot branched from. */
  from: { id: string; name?: string };
  trimmed: boolean;
  /** The trim's options and what it removed. */
  trim?: { options: Record<string, unknown>; removed: Record<string, number>; tokensBefore: number; tokensAfter: number; bytesBefore: number };
  /** The resume block put in front of the branched session (`--with-resume`). */
  resume?: { tier: string; tokens: number; summaryUuid: string };
  /** Forked at a message (`--at`): its uuid and 1-based line, and the lines of the log kept. */
  at?: { uuid: string; line: number; linesKept: number; linesBefore: number };
  /** The session file written. */
  sessionPath: string;
}

export interface RedactionInfo {
  /** The commit this redacted copy was made from. */
  from: string;
  findings: Record<string, number>;
}

export interface SnapshotMeta {
  format: number;
  kind: RefKind;
  /** The name given at creation (a name can later be removed; the meta stays). */
  name: string;
  message?: string;
  tags: string[];
  createdAt: string;
  cmvVersion: string;
  pageFormat: number;
  source: {
    /** Claude Code's session id (the log file's name). */
    sessionId?: string;
    path: string;
    cwd?: string;
  };
  facts: SessionFactsSummary;
  project: ProjectState | null;
  /** How this log relates to its parent's: grown by appends, or rewritten (trimmed in place, branched). */
  growth: 'first' | 'append' | 'rewrite';
  branch?: BranchInfo;
  redaction?: RedactionInfo;
  /**
   * The facts of the log's first `pages` pages, which end at or before its last compaction
   * boundary: a log trimmed in place keeps those bytes (the PreCompact hook copies the history as
   * it is), so a later snapshot whose first pages are the same models only what follows them.
   */
  history?: { pages: number; bytes: number; facts: SessionFactsSummary };
}

/** One line of JSON: a store keeps one per snapshot, and `git show <id>:meta.json | jq` reads it. */
export function serialiseMeta(meta: SnapshotMeta): Buffer {
  return Buffer.from(`${JSON.stringify(meta)}\n`);
}

function hostile(why: string): CmvError {
  return new CmvError('BAD_INPUT', `refusing a snapshot whose meta.json ${why}`, { hint: 'the snapshot did not come from cmv, or was tampered with' });
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** A path that is absolute, normalised and without NUL: safe to use as a cwd or to show. */
export function isCleanAbsolutePath(path: unknown): path is string {
  return isString(path) && !path.includes('\0') && isAbsolute(path) && normalize(path) === path.replace(/\/+$/, '') && !path.split('/').includes('..');
}

/** Parses and checks a meta.json: the shape cmv writes, and nothing that could steer a write elsewhere. */
export function parseMeta(bytes: Buffer | undefined): SnapshotMeta {
  if (!bytes) throw hostile('is missing');
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw hostile('is not JSON');
  }
  const meta = value as SnapshotMeta;
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) throw hostile('is not an object');
  if (meta.format !== META_FORMAT) throw hostile(`has format ${String(meta.format)}, this cmv reads ${META_FORMAT}`);
  if (meta.kind !== 'snapshot' && meta.kind !== 'branch') throw hostile('has an unknown kind');
  if (!isString(meta.name) || nameProblem(meta.name)) throw hostile('has an invalid name');
  if (!isStringArray(meta.tags) || meta.tags.some((t) => nameProblem(t))) throw hostile('has invalid tags');
  if (!isString(meta.createdAt) || Number.isNaN(Date.parse(meta.createdAt))) throw hostile('has no creation time');
  if (!meta.source || typeof meta.source !== 'object' || !isString(meta.source.path)) throw hostile('has no source');
  if (meta.source.sessionId !== undefined && !isUuid(meta.source.sessionId) && !/^[A-Za-z0-9_-]{1,100}$/.test(meta.source.sessionId)) throw hostile('has an unsafe session id');
  if (meta.source.cwd !== undefined && !isCleanAbsolutePath(meta.source.cwd)) throw hostile('has a cwd that is not a clean absolute path');
  if (!meta.facts || typeof meta.facts !== 'object' || typeof meta.facts.lines !== 'number' || typeof meta.facts.bytes !== 'number') throw hostile('has no facts');
  // `cmv branch` writes the new session under the project folder of this cwd.
  if (meta.facts.cwd !== undefined && !isCleanAbsolutePath(meta.facts.cwd)) throw hostile('has a facts.cwd that is not a clean absolute path');
  if (!['first', 'append', 'rewrite'].includes(meta.growth)) throw hostile('has an unknown growth');
  if (meta.branch && !isString(meta.branch.sessionPath)) throw hostile('has a branch without its session path');
  return meta;
}

/** The date of a meta as git wants it, so commits made from the same meta are the same commit. */
export function gitDate(meta: SnapshotMeta): string {
  return `${Math.floor(Date.parse(meta.createdAt) / 1000)} +0000`;
}
