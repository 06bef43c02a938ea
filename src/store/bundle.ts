// `cmv export` / `cmv import`: snapshots with their whole lineage in one git bundle file.
// Export redacts secrets first (unless told not to); import verifies the bundle and adopts it
// through the same checks as a pull.

import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Store } from './store.js';
import { maintain, withStoreLock } from './store.js';
import { Git } from './git.js';
import { listNames, unknownNames, type NamedRef } from './refs.js';
import { refOf } from './names.js';
import { redactLineage } from './redact-commits.js';
import type { RedactionReport } from './redact.js';
import { adoptIncoming, checkOfferedRefs, fetchIncoming, type Adopted } from './adopt.js';
import { CmvError } from '../errors.js';
import { requireRegularFile } from '../session/regular-file.js';
import { checkBundleObjects } from './incoming-limits.js';

export interface SharedSnapshot {
  name: string;
  kind: NamedRef['kind'];
  /** The commit sent: the redacted copy, or the snapshot itself. */
  id: string;
  findings?: RedactionReport;
}

export interface ExportResult {
  file: string;
  bytes: number;
  snapshots: SharedSnapshot[];
  redacted: boolean;
  redaction: RedactionReport;
}

/** The commits to send for `named`: redacted copies (with their lineage) unless `redact` is false. */
export async function prepareToShare(store: Store, named: NamedRef[], redact: boolean): Promise<{ shared: SharedSnapshot[]; redaction: RedactionReport }> {
  if (!redact) return { shared: named.map((n) => ({ name: n.name, kind: n.kind, id: n.id })), redaction: { total: 0, byKind: {} } };
  const lineage = await redactLineage(store, [...new Set(named.map((n) => n.id))]);
  const shared = named.map((n) => ({ name: n.name, kind: n.kind, id: lineage.map.get(n.id) ?? n.id, findings: lineage.byCommit.get(n.id) }));
  return { shared, redaction: lineage.total };
}

export async function selectNames(store: Store, wanted: string[]): Promise<NamedRef[]> {
  const all = await listNames(store);
  if (wanted.length === 0) return all;
  const missing = wanted.filter((w) => !all.some((n) => n.name === w));
  if (missing.length) throw unknownNames(missing, all);
  return all.filter((n) => wanted.includes(n.name));
}

export async function exportBundle(store: Store, names: string[], file: string, options: { redact?: boolean; force?: boolean } = {}): Promise<ExportResult> {
  if (names.length === 0) throw new CmvError('USAGE', 'name the snapshots to export', { hint: 'for example: cmv export auth-work -o auth.bundle' });
  const out = resolve(file);
  if (existsSync(out) && !options.force) throw new CmvError('CONFLICT', `${file} already exists`, { hint: 'choose another -o path, or add --force' });
  const named = await selectNames(store, names);
  const redact = options.redact !== false;
  return withStoreLock(store, async () => {
    const { shared, redaction } = await prepareToShare(store, named, redact);
    // A scratch repository borrowing the store's objects holds the refs under their real names.
    const scratch = await mkdtemp(join(tmpdir(), 'cmv-export-'));
    try {
      const git = new Git(scratch);
      await git.run(['init', '--bare', '--quiet', '.'], 'init');
      await writeFile(join(scratch, 'objects', 'info', 'alternates'), `${join(store.dir, 'objects')}\n`);
      for (const s of shared) await git.run(['update-ref', refOf(s.kind, s.name), s.id], 'update-ref');
      const temp = `${out}.${process.pid}.tmp`;
      await git.run(['bundle', 'create', '--quiet', temp, ...shared.map((s) => refOf(s.kind, s.name))], 'bundle');
      await rename(temp, out);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    return { file: out, bytes: statSync(out).size, snapshots: shared, redacted: redact, redaction };
  });
}

export async function importBundle(store: Store, file: string): Promise<Adopted & { file: string }> {
  const path = resolve(file);
  if (!existsSync(path)) throw new CmvError('NOT_FOUND', `no such file: ${file}`, { hint: 'give the path of a bundle made by `cmv export`' });
  // A FIFO or /dev/zero would hang git while the store lock is held.
  await requireRegularFile(path, 'a bundle');
  return withStoreLock(store, async () => {
    const verify = await store.git.stream(['bundle', 'verify', '--quiet', path], { okCodes: [1, 128] });
    if (verify.code !== 0) {
      throw new CmvError('BAD_INPUT', `${file} is not a valid bundle for this store: ${verify.stderr.trim().split('\n').pop() ?? ''}`, {
        hint: 'export it again with `cmv export`; a bundle carries whole lineages, so nothing else is needed',
      });
    }
    const heads = (await store.git.run(['bundle', 'list-heads', path], 'bundle'))
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const space = line.indexOf(' ');
        return { id: line.slice(0, space), ref: line.slice(space + 1) };
      });
    const accepted = checkOfferedRefs(heads, file);
    await checkBundleObjects(store, path, file);
    const quarantine = await fetchIncoming(store, path, accepted, 'bundle');
    const adopted = await adoptIncoming(store, quarantine, accepted);
    await maintain(store);
    return { ...adopted, file: path };
  });
}
