// Text the model wrote into a file earlier in the resumed conversation (an Edit's new_string, a
// Write's content), kept verbatim in the trimmed log. A later Edit that replaces that text carries
// it again as its old_string; that copy can point back to the earlier call instead, and nothing
// is lost, because the earlier call is still in what Claude Code sends. The earlier call must be an
// ancestor in the chain (a message on another branch, or before a compaction, is not sent with it).

/** Bytes of written text remembered at most: memory stays bounded whatever the size of the log. */
const MAX_REMEMBERED_CHARS = 4 * 1024 * 1024;
/** Steps up the chain at most when checking that the earlier call is an ancestor. */
const MAX_ANCESTOR_STEPS = 200_000;

interface Written {
  toolId: string;
  tool: string;
  /** The line that holds the call. */
  uuid: string;
  text: string;
}

export interface WrittenMatch {
  toolId: string;
  tool: string;
  /** The old_string is the whole earlier text, not a passage of it. */
  whole: boolean;
}

export class WrittenTexts {
  private readonly byPath = new Map<string, Written[]>();
  /** Oldest first; entries before `forgotten` are no longer remembered. */
  private readonly order: { path: string; written: Written }[] = [];
  private forgotten = 0;
  private readonly parentOf = new Map<string, string | null>();
  private rememberedChars = 0;

  /** Records a line's place in the chain (every line from the resumed part on, in file order). */
  noteLine(uuid: string | undefined, parentUuid: string | null | undefined): void {
    if (uuid) this.parentOf.set(uuid, parentUuid ?? null);
  }

  /** Remembers a text written to `path` by a call kept verbatim. */
  add(path: string, text: string, toolId: string, tool: string, uuid: string): void {
    const written: Written = { toolId, tool, uuid, text };
    const list = this.byPath.get(path) ?? [];
    list.push(written);
    this.byPath.set(path, list);
    this.order.push({ path, written });
    this.rememberedChars += text.length;
    while (this.rememberedChars > MAX_REMEMBERED_CHARS && this.forgotten < this.order.length) this.forgetOldest();
  }

  /** The newest earlier call, on this line's own chain, whose written text holds `text`. */
  find(path: string, text: string, uuid: string): WrittenMatch | undefined {
    const list = this.byPath.get(path);
    if (!list) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const written = list[i];
      if (!written.text.includes(text) || !this.isAncestorOrSelf(written.uuid, uuid)) continue;
      return { toolId: written.toolId, tool: written.tool, whole: written.text.length === text.length };
    }
    return undefined;
  }

  private isAncestorOrSelf(ancestor: string, uuid: string): boolean {
    let at: string | null | undefined = uuid;
    for (let steps = 0; at && steps < MAX_ANCESTOR_STEPS; steps++) {
      if (at === ancestor) return true;
      at = this.parentOf.get(at);
    }
    return false;
  }

  private forgetOldest(): void {
    const oldest = this.order[this.forgotten];
    this.order[this.forgotten++] = undefined as never;
    const list = this.byPath.get(oldest.path)!;
    list.splice(list.indexOf(oldest.written), 1);
    if (list.length === 0) this.byPath.delete(oldest.path);
    this.rememberedChars -= oldest.written.text.length;
  }
}
