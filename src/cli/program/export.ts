// `cmv export`: snapshots with their lineage to a git bundle.

import { Output } from '../output.js';
import type { ExportCommandOptions } from '../commands/export.js';
import { command, jsonOption, redactOption, snapshotArgument, type Run } from './shared-options.js';

export const exportBundle = (run: Run) =>
  command('export', 'write snapshots with their lineage to a git bundle, secrets redacted', ['cmv export auth-work -o auth.bundle', 'cmv export a b c -o team.bundle --json'])
    .addArgument(snapshotArgument('<names...>', 'snapshot or branch names'))
    .option('-o, --output <file>', 'the bundle file to write')
    .addOption(redactOption())
    .option('--force', 'overwrite FILE if it exists')
    .addOption(jsonOption())
    .action((names: string[], opts: ExportCommandOptions & { json?: boolean }) => run(async () => (await import('../commands/export.js')).exportCommand(names, opts, new Output(opts))));
