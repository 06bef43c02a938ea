// `cmv hook status`: where cmv's hooks are registered, the last trims they made with their
// savings, and the last problems they logged.

import { findCmvHooks, type FoundHook } from './hook-entries.js';
import { readSettings, settingsPath, SCOPES, type SettingsScope } from './settings-file.js';
import { hookLogPath, readTrimRecords, recentHookMessages, restoredBackups, type TrimRecord } from './trim-journal.js';

export interface ScopeStatus {
  scope: SettingsScope;
  path: string;
  hooks: FoundHook[];
  /** The file could not be read or parsed. */
  problem?: string;
}

export interface HookStatus {
  scopes: ScopeStatus[];
  /** The last trims, newest first; `restored` when their backup was put back since (not in the totals). */
  trims: (TrimRecord & { restored?: boolean })[];
  totals: { trims: number; bytesSaved: number; tokensSaved: number };
  logPath: string;
  recentMessages: string[];
}

export async function hookStatus(options: { projectDir?: string; lastTrims?: number; env?: NodeJS.ProcessEnv } = {}): Promise<HookStatus> {
  const scopes: ScopeStatus[] = [];
  for (const scope of SCOPES) {
    const path = settingsPath(scope, options.projectDir, options.env);
    try {
      const file = await readSettings(path);
      scopes.push({ scope, path, hooks: findCmvHooks(file.settings) });
    } catch (error) {
      scopes.push({ scope, path, hooks: [], problem: (error as Error).message });
    }
  }
  const restored = await restoredBackups(options.env);
  const all: (TrimRecord & { restored?: boolean })[] = (await readTrimRecords(options.env))
    .filter((r) => r.by !== 'dashboard')
    .map((r) => (r.backup && restored.has(r.backup) ? { ...r, restored: true } : r));
  const totals = all
    .filter((r) => !r.restored)
    .reduce((t, r) => ({ trims: t.trims + 1, bytesSaved: t.bytesSaved + Math.max(0, r.bytesBefore - r.bytesAfter), tokensSaved: t.tokensSaved + Math.max(0, r.tokensBefore - r.tokensAfter) }), {
      trims: 0,
      bytesSaved: 0,
      tokensSaved: 0,
    });
  return {
    scopes,
    trims: all.slice(-(options.lastTrims ?? 10)).reverse(),
    totals,
    logPath: hookLogPath(options.env),
    recentMessages: await recentHookMessages(5, options.env),
  };
}
