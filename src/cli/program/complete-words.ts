// `cmv __complete <kind>` (hidden): what the completion scripts ask for at each TAB.

import { command, type Run } from './shared-options.js';

export const completeWords = (run: Run) =>
  command('__complete', 'words for shell completion: sessions, snapshots, remotes or config-keys')
    .argument('<kind>', 'sessions, snapshots, remotes or config-keys')
    .action((kind: string) => run(async () => (await import('../commands/complete-words.js')).completeWordsCommand(kind)));
