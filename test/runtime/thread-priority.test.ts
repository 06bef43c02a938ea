// A worker thread that steps back (the pack's deflating, in the PreCompact hook) lowers its own
// priority only: the thread that starts it, and so the trim Claude Code waits on, keeps its own.

import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_NICENESS } from '../../src/thread-priority.js';
import { BUILD, buildIfStale } from '../helpers/built-cli.js';

const LINUX = existsSync('/proc/thread-self/stat');

/** The nice value of the calling thread, from /proc (field 19 of its stat line). */
function niceOfThisThread(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

beforeAll(async () => {
  await buildIfStale();
}, 300_000);

describe.skipIf(!LINUX)('stepping back', () => {
  it('lowers the priority of the worker thread that asks, not of its process or the thread that started it', async () => {
    const before = niceOfThisThread();
    const url = pathToFileURL(join(BUILD, 'dist', 'thread-priority.js')).href;
    const code = `
      const { parentPort } = require('node:worker_threads');
      const { readFileSync } = require('node:fs');
      import(${JSON.stringify(url)}).then(({ stepBack }) => {
        const set = stepBack();
        const stat = readFileSync('/proc/thread-self/stat', 'utf8');
        parentPort.postMessage({ set, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) });
      });`;
    const worker = new Worker(code, { eval: true });
    const answer = await new Promise<{ set: boolean; nice: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(answer.set).toBe(true);
    expect(answer.nice).toBe(Math.min(19, before + BACKGROUND_NICENESS));
    expect(niceOfThisThread()).toBe(before);
    expect(getPriority()).toBe(before);
  });
});
