// What the dashboard's keys do to sessions and snapshots: snapshot (s), trim into a new session
// (t), branch (b), delete (d). Each returns one line for the status bar; the store and trim
// modules are imported when a key is pressed, not when the dashboard starts.

import { formatReduction, plural } from '../../text/quantities.js';
import { basename, join } from 'node:path';
import { copyFile, mkdir, rename, unlink } from 'node:fs/promises';
import { ensureDataDir } from '../../data-dir.js';
import { isMissingModule } from './availability.js';

export interface ActionResult {
  ok: boolean;
  message: string;
  /** A command the user may want to run next (shown, and printed when the dashboard exits). */
  resumeCommand?: string;
  /** What the action warns of (files changed since the session read them…), each shown whole. */
  warnings?: string[];
  /** A session the action wrote, to resume (a branch). */
  resume?: { cwd?: string; sessionId: string; path: string };
}

function failure(what: string, error: unknown): ActionResult {
  if (isMissingModule(error)) return { ok: false, message: `${what} is not available in this build of cmv` };
  return { ok: false, message: `${what} failed: ${(error as Error).message}` };
}

export async function snapshotAction(path: string): Promise<ActionResult> {
  try {
    const [{ openStore }, { takeSnapshot }] = await Promise.all([import('../../store/store.js'), import('../../store/snapshot.js')]);
    const result = await takeSnapshot(await openStore(), path, { message: 'from the dashboard' });
    return { ok: true, message: `snapshot ${result.name} taken (${plural(result.lines, 'line')})`, warnings: result.warnings };
  } catch (error) {
    return failure('snapshot', error);
  }
}

export async function trimAction(path: string, threshold: number): Promise<ActionResult> {
  try {
    const [{ trimToDestination }, { appendTrimRecord }] = await Promise.all([import('../../trim/apply.js'), import('../../hooks/trim-journal.js')]);
    const applied = await trimToDestination(path, { threshold }, { kind: 'new-session' });
    const r = applied.result;
    await appendTrimRecord({
      at: new Date().toISOString(),
      by: 'dashboard',
      path,
      sessionId: basename(path, '.jsonl'),
      bytesBefore: r.input.bytes,
      bytesAfter: r.output.bytes,
      tokensBefore: r.input.tokens,
      tokensAfter: r.output.tokens,
      output: applied.written,
    });
    return { ok: true, message: `trimmed into new session ${applied.sessionId?.slice(0, 8)} (${formatReduction(r.reduction.tokens)} tokens)`, resumeCommand: applied.resumeCommand };
  } catch (error) {
    return failure('trim', error);
  }
}

/** Moves a session log into cmv's trash folder (data dir), from where it can be moved back. */
export async function deleteSessionAction(path: string): Promise<ActionResult> {
  try {
    const trash = await ensureDataDir('trash');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const target = join(trash, `${stamp}-${basename(path)}`);
    await mkdir(trash, { recursive: true });
    try {
      await rename(path, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(path, target); // the data folder is on another file system
      await unlink(path);
    }
    return { ok: true, message: `moved ${basename(path)} to ${target}` };
  } catch (error) {
    return failure('delete', error);
  }
}

export async function branchAction(snapshot: string, threshold: number): Promise<ActionResult> {
  try {
    const [{ openStore }, { branchSnapshot }] = await Promise.all([import('../../store/store.js'), import('../../store/branch.js')]);
    const b = await branchSnapshot(await openStore(), snapshot, { trimOptions: { threshold } });
    return {
      ok: true,
      message: `branch ${b.name} written as session ${b.sessionId.slice(0, 8)}${b.trimmed ? ' (trimmed)' : ''}`,
      resumeCommand: b.resumeCommand,
      warnings: b.warnings,
      resume: { cwd: b.cwd, sessionId: b.sessionId, path: b.path },
    };
  } catch (error) {
    return failure('branch', error);
  }
}

export async function deleteSnapshotAction(snapshot: string): Promise<ActionResult> {
  try {
    const [{ openStore }, { removeName }] = await Promise.all([import('../../store/store.js'), import('../../store/maintenance.js')]);
    const r = await removeName(await openStore(), snapshot);
    const kept = r.keptByDescendants.length ? `; its content stays for ${r.keptByDescendants.join(', ')}` : '';
    return { ok: true, message: `deleted ${r.kind} ${r.name}${kept}` };
  } catch (error) {
    return failure('delete', error);
  }
}
