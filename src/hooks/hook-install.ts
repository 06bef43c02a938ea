// `cmv hook install | uninstall`: cmv's entries in one Claude Code settings file, everything else
// in it left as it was (a copy of the previous file is kept in cmv's data folder).

import { fileURLToPath } from 'node:url';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { findCmvHooks, hookCommand, withCmvHooks, withoutCmvHooks, type FoundHook, type HookKind, type HookSpec } from './hook-entries.js';
import { shellQuote } from '../text/shell.js';
import { readSettings, removeSettings, settingsPath, writeSettings, type SettingsScope } from './settings-file.js';

/** Claude Code kills a hook after its `timeout`; cmv's own deadline comes first. */
export const CLAUDE_TIMEOUT_MARGIN_SECONDS = 10;

/** The file `name` runs as from PATH, resolved through links, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * How Claude Code starts this cmv: `cmv` when that is this installation on PATH, else this
 * installation's bin by its path, which runs with the node on PATH (its `#!/usr/bin/env node`).
 * Never the absolute path of this node: switching node versions (nvm) must not break the hook.
 */
export function defaultCommandPrefix(env: NodeJS.ProcessEnv = process.env): string {
  const bin = resolve(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cmv.js'));
  const found = onPath('cmv', env);
  if (found !== undefined && found === realpathSync(bin)) return 'cmv';
  return shellQuote(bin);
}

export interface InstallOptions {
  scope: SettingsScope;
  kinds: HookKind[];
  /** How Claude Code should start cmv (default: this node and this cmv, by absolute path). */
  commandPrefix?: string;
  timeoutSeconds: number;
  projectDir?: string;
  env?: NodeJS.ProcessEnv;
}

export interface SettingsChange {
  scope: SettingsScope;
  path: string;
  before: FoundHook[];
  after: FoundHook[];
  /** Copy of the settings file before the change. */
  backup?: string;
  changed: boolean;
}

export async function installHooks(options: InstallOptions): Promise<SettingsChange> {
  const path = settingsPath(options.scope, options.projectDir, options.env);
  const file = await readSettings(path);
  const prefix = options.commandPrefix ?? defaultCommandPrefix(options.env);
  const specs: HookSpec[] = options.kinds.map((kind) => ({ kind, command: hookCommand(prefix, kind), timeout: options.timeoutSeconds + CLAUDE_TIMEOUT_MARGIN_SECONDS }));
  const before = findCmvHooks(file.settings);
  const next = withCmvHooks(file.settings, specs);
  const changed = JSON.stringify(next) !== JSON.stringify(file.settings);
  const { backup } = changed ? await writeSettings(file, next) : { backup: undefined };
  return { scope: options.scope, path, before, after: findCmvHooks(next), backup, changed };
}

export interface UninstallOptions {
  scope: SettingsScope;
  kinds: HookKind[];
  projectDir?: string;
  env?: NodeJS.ProcessEnv;
}

export async function uninstallHooks(options: UninstallOptions): Promise<SettingsChange> {
  const path = settingsPath(options.scope, options.projectDir, options.env);
  const file = await readSettings(path);
  const before = findCmvHooks(file.settings);
  if (!before.some((h) => options.kinds.includes(h.kind))) return { scope: options.scope, path, before, after: before, changed: false };
  const next = withoutCmvHooks(file.settings, options.kinds);
  // Settings that held nothing but cmv's hooks (a file install created): removed, not left as {}.
  const { backup } = Object.keys(next).length === 0 ? await removeSettings(file) : await writeSettings(file, next);
  return { scope: options.scope, path, before, after: findCmvHooks(next), backup, changed: true };
}
