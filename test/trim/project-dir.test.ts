// `--project-dir DIR`: the session's project lives at DIR now (a moved checkout, a branch pulled
// to another machine). The trim reads the files the log names under its recorded cwd from DIR, so
// an applied Write or Edit whose file holds its text is stubbed there as on the original machine.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trimToDestination } from '../../src/trim/apply.js';
import { movedPath } from '../../src/trim/disk.js';
import { SessionBuilder, CWD, recordsOf, removeWrittenSessions, type Json } from './session-builder.js';

const moved = mkdtempSync(join(tmpdir(), 'cmv-project-dir-'));
afterAll(() => {
  removeWrittenSessions();
  rmSync(moved, { recursive: true, force: true });
});

const content = Array.from({ length: 40 }, (_, i) => `export const value${i} = compute(${i}); // line ${i}`).join('\n');

function writeSession(): { path: string; id: string } {
  const b = new SessionBuilder();
  b.user('Create the values module.');
  const write = b.toolCall('Write', { file_path: `${CWD}/src/values.ts`, content }, `File created successfully at: ${CWD}/src/values.ts`);
  b.assistant([{ type: 'text', text: 'Created src/values.ts.' }]);
  return { path: b.write(), id: write.id };
}

function contentOf(lines: Buffer[], id: string): string {
  for (const r of recordsOf(lines) as Json[]) for (const block of r.message?.content ?? []) if (block?.type === 'tool_use' && block.id === id) return block.input.content;
  throw new Error(`no tool_use ${id}`);
}

describe('--project-dir', () => {
  it('maps paths under the recorded cwd to DIR, and leaves others alone', () => {
    const move = { from: '/home/ann/app', to: '/srv/checkout' };
    expect(movedPath('/home/ann/app/src/a.ts', move)).toBe('/srv/checkout/src/a.ts');
    expect(movedPath('/home/ann/app', move)).toBe('/srv/checkout');
    expect(movedPath('/home/ann/application/a.ts', move)).toBe('/home/ann/application/a.ts');
    expect(movedPath('/etc/hosts', move)).toBe('/etc/hosts');
  });

  it('stubs a Write the moved project holds; without it the content stays whole', async () => {
    mkdirSync(join(moved, 'src'), { recursive: true });
    writeFileSync(join(moved, 'src', 'values.ts'), content);
    const { path, id } = writeSession();
    const here = await trimToDestination(path, {}, { kind: 'dry-run' });
    expect(contentOf(here.result.lines!, id)).toBe(content);
    const there = await trimToDestination(path, {}, { kind: 'dry-run' }, moved);
    expect(there.result.verify.ok).toBe(true);
    expect(contentOf(there.result.lines!, id)).toMatch(/^\[cmv: 40 lines elided; on disk\]$/);
  });

  it('an in-place trim reads the moved project too', async () => {
    mkdirSync(join(moved, 'src'), { recursive: true });
    writeFileSync(join(moved, 'src', 'values.ts'), content);
    const { path, id } = writeSession();
    const env = process.env.CMV_HOME;
    process.env.CMV_HOME = mkdtempSync(join(tmpdir(), 'cmv-project-dir-home-'));
    try {
      const there = await trimToDestination(path, {}, { kind: 'in-place' }, moved);
      expect(there.result.verify.ok).toBe(true);
      const { readFileSync } = await import('node:fs');
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => Buffer.from(l));
      expect(contentOf(lines, id)).toMatch(/^\[cmv: 40 lines elided; on disk\]$/);
    } finally {
      rmSync(process.env.CMV_HOME, { recursive: true, force: true });
      if (env === undefined) delete process.env.CMV_HOME;
      else process.env.CMV_HOME = env;
    }
  });
});
