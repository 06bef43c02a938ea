// `cmv hook install | uninstall`: cmv's entries in one Claude Code settings file, everything else
// in it left as it was (a copy of the previous file is kept in cmv's data folder).

import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { findCmvHooks, hookCommand, withCmvHooks, withoutCmvHooks, type FoundHook, type HookKind, type HookSpec } from './hook-entries.js';
import { shellQuote } from '../text/shell.js';
import { readSettings, settingsPath, writeSettings, type SettingsScope } from './settings-file.js';

/** Claude Code kills a hook after its `timeout`; cmv's own deadline comes first. */
export const CLAUDE_TIMEOUT_MARGIN_SECONDS = 10;

/** This installation of cmv, run by this node: works without cmv on Claude Code's PATH. */
export function defaultCommandPrefix(): string {
  const bin = resolve(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'cmv.js'));
  return `${shellQuote(process.execPath)} ${shellQuote(bin)}`;
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
  const prefix = options.commandPrefix ?? defaultCommandPrefix();
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
  const { backup } = await writeSettings(file, next);
  return { scope: options.scope, path, before, after: findCmvHooks(next), backup, changed: true };
}
