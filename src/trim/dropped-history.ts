// Lines before the last compaction boundary, when a streamed trim drops them unread. A long log
// is mostly such lines, so none of them is kept as an entry: only what decides whether dropping
// them was right (the lines that follow must resume the same way without them), a hash of each
// uuid and a few times, so the trim's memory is bounded by what follows the boundary, not the file.

import type { SessionEntry } from '../session/entry.js';
import { DANGLING_FALLBACK_MS, isConversational, isLeafType, missingParentOf, type Conversation } from '../session/conversation.js';

/** FNV-1a of a uuid: a miss proves a uuid was not dropped; a hit (maybe a collision) only costs a full read. */
function hashUuid(uuid: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < uuid.length; i++) hash = Math.imul(hash ^ uuid.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The latest time seen, on the main chain and on any chain (a subagent transcript's main chain is a sidechain). */
class LatestTime {
  main = -Infinity;
  any = -Infinity;
  seen = false;

  note(ms: number, isSidechain: boolean): void {
    this.seen = true;
    if (Number.isNaN(ms)) return;
    this.any = Math.max(this.any, ms);
    if (!isSidechain) this.main = Math.max(this.main, ms);
  }

  of(subagentTranscript: boolean): number {
    return subagentTranscript ? this.any : this.main;
  }
}

export class DroppedHistory {
  /** Lines dropped unread (metadata lines, kept, are not among them). */
  count = 0;
  private hashes = new Uint32Array(1024);
  private size = 0;
  private sorted = true;
  /** Lines that could be the resumed leaf. */
  private leaves = new LatestTime();
  /** Lines Claude Code could take for a parent missing from the file (any but progress lines). */
  private fallbacks = new LatestTime();
  private hasMainConversational = false;
  private hasSidechainConversational = false;

  note(entry: SessionEntry): void {
    this.count++;
    if (isConversational(entry) && entry.isSidechain) this.hasSidechainConversational = true;
    if (!entry.uuid) return;
    if (this.size === this.hashes.length) {
      const grown = new Uint32Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[this.size++] = hashUuid(entry.uuid);
    this.sorted = false;
    if (isConversational(entry) && !entry.isSidechain) this.hasMainConversational = true;
    const ms = entry.timestamp ? Date.parse(entry.timestamp) : NaN;
    if (isLeafType(entry.type)) this.leaves.note(ms, entry.isSidechain);
    if (entry.type !== 'progress') this.fallbacks.note(ms, entry.isSidechain);
  }

  /** Whether a dropped line may have had this uuid (false: certainly none did). */
  mayHave(uuid: string): boolean {
    if (!this.sorted) {
      this.hashes = this.hashes.slice(0, this.size).sort();
      this.sorted = true;
    }
    const wanted = hashUuid(uuid);
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.hashes[mid] < wanted) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.size && this.hashes[lo] === wanted;
  }

  /**
   * Whether the conversation of the kept lines, indexed without the dropped ones, resumes as the
   * whole log would: the same kind of transcript, a leaf later than any dropped line could be,
   * no kept line whose parent may be a dropped line (it would need re-linking), and no line of
   * the resumed path whose parent is missing from the whole file where Claude Code's fallback by
   * time could reach a dropped line.
   */
  agreesWith(c: Conversation): boolean {
    // As buildConversation decides it, over the whole log.
    const keptMain = c.entries.some((e) => isConversational(e) && e.uuid && !e.isSidechain);
    const keptSidechain = c.entries.some((e) => isConversational(e) && e.isSidechain);
    const subagentTranscript = !keptMain && !this.hasMainConversational && (keptSidechain || this.hasSidechainConversational);
    if (subagentTranscript !== c.isSubagentTranscript) return false;
    // Over 5 MiB Claude Code itself forgets what precedes the last boundary (the caller checked its
    // load reaches it): no dropped line can be the leaf, a parent or a fallback.
    if (c.streamedLoad) return true;

    // A kept line whose parent was dropped is re-linked to its nearest kept ancestor, which takes the dropped lines' chain.
    if (c.danglingParents.some((entry) => typeof entry.parentUuid === 'string' && this.mayHave(entry.parentUuid))) return false;
    for (const entry of c.activePath) {
      const missing = missingParentOf(entry, c.byUuid);
      if (missing === undefined) continue;
      const ms = entry.timestamp ? Date.parse(entry.timestamp) : NaN;
      if (this.fallbacks.seen && !(ms - this.fallbacks.of(subagentTranscript) > DANGLING_FALLBACK_MS)) return false;
    }

    if (!this.leaves.seen) return true;
    const leafMs = c.leaf?.timestamp ? Date.parse(c.leaf.timestamp) : NaN;
    // On a tie the earlier line, a dropped one, would be the leaf.
    return leafMs > this.leaves.of(subagentTranscript);
  }
}
