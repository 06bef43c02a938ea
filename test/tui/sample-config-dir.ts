// A Claude config dir holding copies of the sample sessions, each in the project folder Claude
// Code would use for its cwd, so the dashboard lists them as it would a user's.

import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectFolderName } from '../../src/session/locate.js';

export const SAMPLES = resolve(__dirname, '..', '..', 'sample-sessions');

export interface SampleSession {
  name: string;
  id: string;
  cwd: string;
  path: string;
}

export function sampleConfigDir(dir: string, names = ['coding', 'compacted', 'short']): SampleSession[] {
  const out: SampleSession[] = [];
  for (const name of names) {
    const text = readFileSync(join(SAMPLES, `${name}.jsonl`), 'utf8');
    const cwd = /"cwd":"([^"]+)"/.exec(text)![1];
    const id = /"sessionId":"([^"]+)"/.exec(text)![1];
    const folder = join(dir, 'projects', projectFolderName(cwd));
    mkdirSync(folder, { recursive: true });
    const path = join(folder, `${id}.jsonl`);
    copyFileSync(join(SAMPLES, `${name}.jsonl`), path);
    out.push({ name, id, cwd, path });
  }
  return out;
}

export function sessionFiles(dir: string): string[] {
  return readdirSync(join(dir, 'projects'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.jsonl'));
}
