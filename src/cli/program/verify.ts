// `cmv verify`: proof that a trimmed log kept every text and tool pairing of its original.

import { Output } from '../output.js';
import { command, jsonOption, type Run } from './shared-options.js';

export const verify = (run: Run) =>
  command('verify', 'prove a trimmed log kept every text and tool pairing of its original; exit 0 only when it did', ['cmv verify original.jsonl trimmed.jsonl', 'cmv verify 3f2a 9c1e --json'])
    .argument('<original>', 'the original session')
    .argument('<trimmed>', 'the trimmed session')
    .addOption(jsonOption())
    .action((original: string, trimmed: string, opts: { json?: boolean }) => run(async () => (await import('../commands/verify.js')).verifyCommand(original, trimmed, new Output(opts))));
