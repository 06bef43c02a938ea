// Access to ../shared (real Claude Code logs). Tests that use it skip cleanly when it is absent.

import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

export const SHARED_DIR = resolve(__dirname, '..', '..', '..', 'shared');
export const CORPUS_DIR = join(SHARED_DIR, 'corpus', 'claude-code');
export const HAS_CORPUS = existsSync(CORPUS_DIR);

export function corpusFiles(): string[] {
  if (!HAS_CORPUS) return [];
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(CORPUS_DIR, f));
}

/** Real logs of newer clients (2.1.50 on), beside the main corpus. */
export const RECENT_CORPUS_DIR = join(SHARED_DIR, 'corpus', 'claude-code-recent');
export const HAS_RECENT_CORPUS = existsSync(RECENT_CORPUS_DIR);

export function recentCorpusFiles(): string[] {
  if (!HAS_RECENT_CORPUS) return [];
  return readdirSync(RECENT_CORPUS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(RECENT_CORPUS_DIR, f));
}

export function corpusFile(name: string): string {
  return join(CORPUS_DIR, name);
}

export const SAMPLE_DIR = resolve(__dirname, '..', '..', 'sample-sessions');

export function sampleFiles(): string[] {
  if (!existsSync(SAMPLE_DIR)) return [];
  return readdirSync(SAMPLE_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(SAMPLE_DIR, f));
}

/** Subagent transcripts of the corpus (`agent-a<id>` in the name); `subagent-v2…` is a main session. */
export function isSubagentFile(name: string): boolean {
  return /(^|-)agent-a[0-9a-z]/.test(basename(name));
}
