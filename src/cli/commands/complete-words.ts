// `cmv __complete <kind>` (hidden): the words a shell completion offers at the moment of the TAB -
// session ids, snapshot and branch names, remotes, config keys - one per line, never an error.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DYNAMIC_KINDS, type DynamicKind } from '../completion/kinds.js';

/** The store, when there is one: a TAB never creates it. */
async function existingStore() {
  const { openStore, storeDir } = await import('../../store/store.js');
  return existsSync(join(storeDir(), 'config')) ? openStore() : undefined;
}

async function wordsOf(kind: DynamicKind): Promise<string[]> {
  switch (kind) {
    case 'sessions': {
      const { claudeConfigDirs, listSessionFiles } = await import('../../session/locate.js');
      return (await listSessionFiles(claudeConfigDirs())).map((f) => f.id);
    }
    case 'snapshots': {
      const [{ listNames }, store] = await Promise.all([import('../../store/refs.js'), existingStore()]);
      return store ? (await listNames(store)).map((n) => n.name) : [];
    }
    case 'remotes': {
      const [{ listRemotes }, store] = await Promise.all([import('../../store/remote.js'), existingStore()]);
      return store ? (await listRemotes(store)).map((r) => r.name) : [];
    }
    case 'config-keys': {
      const { CONFIG_KEYS } = await import('../../config/config-keys.js');
      return Object.keys(CONFIG_KEYS);
    }
  }
}

export async function completeWordsCommand(kind: string): Promise<void> {
  if (!(DYNAMIC_KINDS as readonly string[]).includes(kind)) return;
  // No store yet, no config dir: nothing to offer, and nothing to say on a shell's prompt line.
  const words = await wordsOf(kind as DynamicKind).catch(() => []);
  if (words.length > 0) process.stdout.write(`${words.join('\n')}\n`);
}
