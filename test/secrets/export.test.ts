// End to end: a session holding the planted secrets is snapshotted (its graph stored beside it),
// exported and imported into another store. Nothing the other store gets (log pages, graph.json,
// meta: its message and paths) holds any of them, and every line is still JSON.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { takeSnapshot } from '../../src/store/snapshot.js';
import { exportBundle, importBundle } from '../../src/store/bundle.js';
import { listNames } from '../../src/store/refs.js';
import { readLog } from '../../src/store/objects.js';
import { readMeta } from '../../src/store/read-meta.js';
import { scriptRecords, type ScriptStep } from '../graph/script-session.js';
import { git, installSession, sandbox, SESSION_A, type Sandbox } from '../store/helpers.js';
import { leaks, plantedSecrets, randomString, seeded } from '../helpers/planted-secrets.js';

let here: Sandbox;
let there: Sandbox;
beforeEach(async () => {
  here = await sandbox();
  there = await sandbox();
});
afterEach(() => {
  here.cleanup();
  there.cleanup();
});

describe('export of a session full of secrets', () => {
  it('sends none of them, in the log, graph.json or the meta', async () => {
    // One kind in three, in every position: a session of some 800 lines.
    const planted = plantedSecrets(2026).filter((_, i) => i % 3 === 0);
    const steps = planted.flatMap((p) => p.steps) as ScriptStep[];
    const log = `${scriptRecords(steps, SESSION_A)
      .map((r) => JSON.stringify({ ...r, cwd: '/tmp/cmv-secrets/app' }))
      .join('\n')}\n`;
    const path = installSession(here, '/tmp/cmv-secrets/app', SESSION_A, log);
    const token = `ghp_${randomString(seeded(9), 36)}`;
    await takeSnapshot(here.store, path, { name: 'leaky', message: `before rotating ${token}`, tags: ['release'], now: new Date(Date.now() + 600_000) });

    const file = join(here.root, 'leaky.bundle');
    const exported = await exportBundle(here.store, ['leaky'], file);
    expect(exported.redaction.total).toBeGreaterThanOrEqual(planted.length);
    await importBundle(there.store, file);
    const id = (await listNames(there.store)).find((n) => n.name === 'leaky')!.id;

    const text = (await readLog(there.store.git, id)).toString('utf8');
    for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    const graph = git(there.store.dir, 'show', `${id}:graph.json`);
    expect(graph.length).toBeGreaterThan(100);
    const meta = JSON.stringify(await readMeta(there.store, id));
    const missed = planted.filter((p) => leaks(text, p.body) || leaks(graph, p.body)).map((p) => `${p.kind.id}@${p.position}`);
    expect(missed).toEqual([]);
    expect(meta).not.toContain(token.slice(4));
    expect(meta).toContain('before rotating [REDACTED:github-token]');
  }, 120_000);
});
