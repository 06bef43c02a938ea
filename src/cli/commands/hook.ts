// `cmv hook install | uninstall | status | restore`: cmv inside Claude Code, through its hooks.

import chalk from 'chalk';
import { installHooks, uninstallHooks, type SettingsChange } from '../../hooks/hook-install.js';
import { hookStatus, type HookStatus } from '../../hooks/hook-status.js';
import { restoreHookTrim } from '../../hooks/hook-restore.js';
import { checkScope } from '../../hooks/settings-file.js';
import type { HookKind } from '../../hooks/hook-entries.js';
import { loadConfig } from '../../config/config-file.js';
import { CmvError } from '../../errors.js';
import { resolveSessionArg } from '../../session/locate.js';
import type { Output } from '../output.js';
import { formatBytes, formatCount, relativeTime, table, plural, formatReduction } from '../format.js';

export interface HookInstallOptions {
  scope?: string;
  sizeGuard?: boolean;
  command?: string;
}

function describeHook(kind: HookKind): string {
  return kind === 'pre-compact' ? 'PreCompact: snapshot + trim before compaction' : 'PostToolUse: size guard';
}

function renderChange(verb: string) {
  return (c: SettingsChange): string => {
    const lines = [`${c.changed ? verb : 'nothing to change in'} ${c.path} (${c.scope} scope)`];
    for (const h of c.after) lines.push(`  ${chalk.green('✓')} ${describeHook(h.kind)} ${chalk.dim(h.command)}`);
    if (c.after.length === 0) lines.push(chalk.dim('  no cmv hooks registered there'));
    if (c.backup) lines.push(chalk.dim(`previous settings kept at ${c.backup}`));
    return lines.join('\n');
  };
}

/**
 * The snapshot store the PreCompact hook writes to, made now if it is not there: the hook then
 * never spends Claude Code's wait creating it (git init and its checks, about 0.1 s), and a store
 * that cannot be made (git missing) is said here rather than skipped in silence at a compaction.
 */
async function storeForHook(): Promise<{ path: string } | { problem: string }> {
  const { openStore } = await import('../../store/store.js');
  try {
    return { path: (await openStore()).dir };
  } catch (error) {
    return { problem: error instanceof CmvError ? `${error.message}${error.hint ? ` (${error.hint})` : ''}` : String(error) };
  }
}

export async function hookInstallCommand(opts: HookInstallOptions, out: Output): Promise<void> {
  const config = await loadConfig();
  const kinds: HookKind[] = opts.sizeGuard ? ['pre-compact', 'size-guard'] : ['pre-compact'];
  const change = await installHooks({ scope: checkScope(opts.scope ?? 'user'), kinds, commandPrefix: opts.command, timeoutSeconds: config.values['hook.timeoutSeconds'] });
  const store = config.values['hook.snapshot'] ? await storeForHook() : undefined;
  out.render({ ...change, ...(store ? { store } : {}) }, (c) => {
    const text = renderChange('registered cmv in')(c);
    const guard = opts.sizeGuard ? `; size guard trims after ${formatBytes(config.values['hook.growthBytes'])} of growth (cmv config set hook.growthBytes 8MB)` : '';
    const stored = !store
      ? ''
      : 'path' in store
        ? `\n${chalk.dim(`snapshots before each compaction go to ${store.path}`)}`
        : `\n${chalk.yellow(`snapshots before a compaction will be skipped: ${store.problem}`)}`;
    return `${text}${stored}\n${chalk.dim(`Claude Code picks it up in new sessions${guard}.`)}`;
  });
}

export async function hookUninstallCommand(opts: { scope?: string; sizeGuardOnly?: boolean }, out: Output): Promise<void> {
  const kinds: HookKind[] = opts.sizeGuardOnly ? ['size-guard'] : ['pre-compact', 'size-guard'];
  out.render(await uninstallHooks({ scope: checkScope(opts.scope ?? 'user'), kinds }), renderChange('removed cmv from'));
}

export async function hookStatusCommand(opts: { last?: string }, out: Output): Promise<void> {
  const last = opts.last === undefined ? 10 : Number(opts.last);
  out.render(await hookStatus({ lastTrims: Number.isInteger(last) && last > 0 ? last : 10 }), renderHookStatus);
}

export function renderHookStatus(s: HookStatus): string {
  const lines: string[] = [chalk.bold('Registered')];
  for (const scope of s.scopes) {
    const what = scope.problem ? chalk.red(scope.problem) : scope.hooks.length ? scope.hooks.map((h) => describeHook(h.kind)).join(', ') : chalk.dim('none');
    lines.push(`  ${scope.scope.padEnd(8)}${what} ${chalk.dim(scope.path)}`);
  }
  lines.push('', chalk.bold('Last trims'));
  if (s.trims.length === 0) lines.push(chalk.dim('  none yet'));
  else {
    const rows = s.trims.map((t) => [
      `  ${relativeTime(Date.parse(t.at))}`,
      t.by,
      t.sessionId?.slice(0, 8) ?? '?',
      `${formatBytes(t.bytesBefore)} → ${formatBytes(t.bytesAfter)}`,
      `${formatCount(t.tokensBefore)} → ${formatCount(t.tokensAfter)} tokens`,
      chalk.green(`${formatReduction(t.tokensBefore ? 1 - t.tokensAfter / t.tokensBefore : 0)}`),
      [t.restored ? chalk.yellow('restored') : '', t.snapshot ? chalk.dim(`snapshot ${t.snapshot}`) : ''].filter(Boolean).join(' '),
    ]);
    lines.push(table(rows, ['left', 'left', 'left', 'right', 'right', 'right', 'left']));
    lines.push(chalk.dim(`  ${plural(s.totals.trims, 'trim')} in all (restored ones left out) saved ${formatBytes(s.totals.bytesSaved)}, ${formatCount(s.totals.tokensSaved)} tokens`));
  }
  if (s.recentMessages.length) {
    lines.push('', chalk.bold('Recent problems') + chalk.dim(` (${s.logPath})`));
    for (const m of s.recentMessages) lines.push(chalk.yellow(`  ${m}`));
  }
  return lines.join('\n');
}

export async function hookRestoreCommand(target: string, out: Output): Promise<void> {
  const result = await restoreHookTrim(await resolveSessionArg(target));
  out.render(result, (r) => r.unchanged ?? `restored ${r.path} from ${r.restored} (lines appended since were kept; restoring again changes nothing)`);
}
