// `cmv hook ...`: cmv inside Claude Code (PreCompact hook and the optional size guard).

import { Option } from 'commander';
import { Output } from '../output.js';
import type { HookInstallOptions } from '../commands/hook.js';
import { command, jsonOption, sessionArgument, type Run } from './shared-options.js';

const scopeOption = () =>
  new Option('--scope <scope>', 'user (~/.claude/settings.json), project (.claude/settings.json) or local (.claude/settings.local.json)').choices(['user', 'project', 'local']).default('user');

export const hook = (run: Run) => {
  const hookCommand = command('hook', 'cmv inside Claude Code: snapshot and trim before compaction, and an optional size guard', [
    'cmv hook install                     # PreCompact hook in ~/.claude/settings.json',
    'cmv hook install --scope project --size-guard',
    'cmv hook status',
    'cmv hook restore 3f2a                # undo the last trim a hook made',
    'cmv hook uninstall',
  ]);
  hookCommand.addCommand(
    command('install', "register the PreCompact hook (and with --size-guard the PostToolUse size guard) in Claude Code's settings; other hooks are left alone", [
      'cmv hook install',
      'cmv hook install --scope project --size-guard',
      "cmv hook install --command 'npx cmv'",
    ])
      .addOption(scopeOption())
      .option('--size-guard', 'also trim when the log grew by hook.growthBytes since its last trim (checked after each tool call)')
      .option('--command <prefix>', 'how Claude Code should start cmv (default: `cmv` when this installation is on PATH, else its bin/cmv.js by path, run by the node on PATH)')
      .addOption(jsonOption())
      .action((opts: HookInstallOptions & { json?: boolean }) => run(async () => (await import('../commands/hook.js')).hookInstallCommand(opts, new Output(opts)))),
  );
  hookCommand.addCommand(
    command('uninstall', "remove cmv's hooks from Claude Code's settings", ['cmv hook uninstall', 'cmv hook uninstall --scope project --size-guard-only'])
      .addOption(scopeOption())
      .option('--size-guard-only', 'remove only the size guard')
      .addOption(jsonOption())
      .action((opts: { scope?: string; sizeGuardOnly?: boolean; json?: boolean }) => run(async () => (await import('../commands/hook.js')).hookUninstallCommand(opts, new Output(opts)))),
  );
  hookCommand.addCommand(
    command('status', 'where the hooks are registered, the last trims they made with their savings, and recent problems', ['cmv hook status', 'cmv hook status --last 30 --json'])
      .option('--last <n>', 'show the last N trims (default 10)')
      .addOption(jsonOption())
      .action((opts: { last?: string; json?: boolean }) => run(async () => (await import('../commands/hook.js')).hookStatusCommand(opts, new Output(opts)))),
  );
  hookCommand.addCommand(
    command('restore', "put back a log as it was before the hooks' trims, keeping lines written since (the size guard then waits for new growth)", ['cmv hook restore 3f2a', 'cmv hook restore latest'])
      .addArgument(sessionArgument())
      .addOption(jsonOption())
      .action((session: string, opts: { json?: boolean }) => run(async () => (await import('../commands/hook.js')).hookRestoreCommand(session, new Output(opts)))),
  );
  hookCommand.addCommand(
    command('run', 'what Claude Code runs (reads the hook event on stdin; always exits 0)')
      .argument('<kind>', 'pre-compact or size-guard')
      .action((kind: string) => run(async () => (await import('../../hooks/hook-main.js')).hookMain(kind))),
    { hidden: true },
  );
  return hookCommand;
};
