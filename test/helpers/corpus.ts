// Access to ../shared (real Claude Code logs). Tests that use it skip cleanly when it is absent.

import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

export const SHARED_DIR = resolve(__dirname, '..', '..', '..', 'shared');
export const CORPUS_DIR = join(SHARED_DIR, 'corpus', 'claude-code');
/** CMV_CORPUS=skip (set by `npm run test:unit`) leaves the real logs out, as if absent. */
export const HAS_CORPUS = process.env.CMV_CORPUS !== 'skip' && existsSync(CORPUS_DIR);

export function corpusFiles(): string[] {
  if (!HAS_CORPUS) return [];
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(CORPUS_DIR, f));
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
