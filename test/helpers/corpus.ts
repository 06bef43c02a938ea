// Access to ../shared (real Claude Code logs). Tests that use it skip cleanly when it is absent.

import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

export const SHARED_DIR = resolve(__dirname, '..', '..', '..', 'shared');
export const CORPUS_DIR = join(SHARED_DIR, 'corpus', 'claude-code');
/** CMV_CORPUS=skip (set by `npm run test:unit`) leaves ../shared out (real logs and benches), as if absent. */
export const SKIP_SHARED = process.env.CMV_CORPUS === 'skip';
/** Whether `dir` (under ../shared) is there to read: false under CMV_CORPUS=skip. */
export function hasShared(dir: string): boolean {
  return !SKIP_SHARED && existsSync(dir);
}
export const HAS_CORPUS = hasShared(CORPUS_DIR);

export function corpusFiles(): string[] {
  if (!HAS_CORPUS) return [];
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(CORPUS_DIR, f));
}

/** Real logs of Claude Code 2.1.50 to 2.1.229. */
export const RECENT_CORPUS_DIR = join(SHARED_DIR, 'corpus', 'claude-code-recent');
export const HAS_RECENT_CORPUS = hasShared(RECENT_CORPUS_DIR);

export function recentCorpusFiles(): string[] {
  if (!HAS_RECENT_CORPUS) return [];
  return readdirSync(RECENT_CORPUS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(RECENT_CORPUS_DIR, f));
}

/** Both real corpora, older first. */
export function allCorpusFiles(): string[] {
  return [...corpusFiles(), ...recentCorpusFiles()];
}

export function corpusFile(name: string): string {
  return join(CORPUS_DIR, name);
}

export const SAMPLE_DIR = resolve(__dirname, '..', '..', 'sample-sessions');
/** Samples written by today's client (sample-sessions/2.1.332), beside the 2.1.100 ones. */
export const SAMPLE_DIR_332 = join(SAMPLE_DIR, '2.1.332');

function jsonlIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(dir, f));
}

/** Every sample session: those of 2.1.100, then those of 2.1.332. */
export function sampleFiles(): string[] {
  return [...jsonlIn(SAMPLE_DIR), ...jsonlIn(SAMPLE_DIR_332)];
}

/** Subagent transcripts of the corpus (`agent-a<id>` in the name); `subagent-v2…` is a main session. */
export function isSubagentFile(name: string): boolean {
  return /(^|-)agent-a[0-9a-z]/.test(basename(name));
}
