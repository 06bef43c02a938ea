// What a bundle or a remote may bring in, checked before any of it is read or named: every object
// passes git's own checks (git applies transfer.fsckObjects to fetches, not to bundles), and no
// object is larger than a snapshot of a real log could hold, judged from sizes git knows without
// inflating the object (a 1 MB bundle may expand to a 1 GB page).

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from './store.js';
import { Git } from './git.js';
import { CmvError } from '../errors.js';

/**
 * The largest page accepted: pages are cut at about 1 MB, past that only at a line's end, and no
 * line of a Claude Code log comes near 63 MB (the API takes requests of at most 32 MB).
 */
export const MAX_PAGE_BYTES = 64 * 1024 * 1024;
/** meta.json and the side files (graph.json) are small; a large one did not come from cmv. */
export const MAX_META_BYTES = 16 * 1024 * 1024;
/** All objects a bundle brings, inflated. */
export const MAX_INCOMING_BYTES = 8 * 1024 * 1024 * 1024;

export function tooLarge(what: string, bytes: number, limit: number, where: string): CmvError {
  return new CmvError('BAD_INPUT', `refusing ${where}: ${what} is ${bytes} bytes, more than the ${limit} a snapshot holds`, {
    hint: 'the content was not made by cmv from a real session log; nothing was imported',
  });
}

/**
 * Unpacks the bundle into a scratch repository of its own (no alternates, so git's checks cover
 * exactly what the bundle holds), refuses oversized objects from their recorded sizes, then runs
 * `git fsck --strict` there. The store is not touched.
 */
export async function checkBundleObjects(store: Store, bundle: string, where: string): Promise<void> {
  // Inside the store's scratch folder, which the next writer clears if this one is killed.
  await mkdir(store.tmpDir, { recursive: true });
  const scratch = await mkdtemp(join(store.tmpDir, 'bundle-'));
  try {
    const git = new Git(scratch);
    await git.run(['init', '--bare', '--quiet', '.'], 'init');
    const unbundle = await git.stream(['bundle', 'unbundle', bundle], { okCodes: [1, 128] });
    if (unbundle.code !== 0) {
      throw new CmvError('BAD_INPUT', `refusing ${where}: it does not unpack on its own: ${unbundle.stderr.trim().split('\n').pop() ?? ''}`, {
        hint: 'cmv exports whole lineages; export it again with `cmv export`. Nothing was imported',
      });
    }
    const sizes = await git.stream(['cat-file', '--batch-all-objects', '--batch-check=%(objecttype) %(objectsize)']);
    let total = 0;
    for (const line of sizes.stdout.toString('utf8').split('\n')) {
      if (!line) continue;
      const [type, size] = line.split(' ');
      const bytes = Number(size);
      total += bytes;
      if (type === 'blob' && bytes > MAX_PAGE_BYTES) throw tooLarge('an object', bytes, MAX_PAGE_BYTES, where);
      if (type !== 'blob' && bytes > MAX_META_BYTES) throw tooLarge(`a ${type}`, bytes, MAX_META_BYTES, where);
      if (total > MAX_INCOMING_BYTES) throw tooLarge('its content', total, MAX_INCOMING_BYTES, where);
    }
    const fsck = await git.stream(['fsck', '--strict', '--no-dangling', '--no-progress', '--no-reflogs'], { okCodes: [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20] });
    const complaints = `${fsck.stdout.toString('utf8')}\n${fsck.stderr}`
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('notice:') && !l.startsWith('Checking') && !l.startsWith('dangling') && !l.startsWith('unreachable'));
    if (fsck.code !== 0 || complaints.length > 0) {
      throw new CmvError('BAD_INPUT', `refusing ${where}: git's checks of its objects failed: ${complaints[0] ?? `fsck exit ${fsck.code}`}`, {
        hint: 'the content is damaged or was not made by cmv; nothing was imported',
      });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
