// `cmv verify`: proof that a trimmed log kept every text and tool pairing of its original, for
// the client that will resume it.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const verify = (run: Run) =>
  command('verify', 'prove a trimmed log kept every text and tool pairing of its original; exit 0 only when it did', [
    'cmv verify original.jsonl trimmed.jsonl',
    'cmv verify 3f2a 9c1e --client 2.1.332',
    'cmv verify 3f2a 9c1e --json',
  ])
    .argument('<original>', 'the original session')
    .argument('<trimmed>', 'the trimmed session')
    .option('--client <version>', 'the Claude Code version that will resume it (default: `claude --version` on PATH; none found: every version cmv knows)')
    .addOption(jsonOption())
    .action((original: string, trimmed: string, opts: { json?: boolean; client?: string }) =>
      run(async () => (await import('../commands/verify.js')).verifyCommand(original, trimmed, opts, new Output(opts))),
    );
