// Text the model wrote into a file earlier in the resumed conversation (an Edit's new_string, a
// Write's content), kept verbatim in the trimmed log. A later Edit that replaces that text carries
// it again as its old_string; that copy can point back to the earlier call instead, and nothing
// is lost, because the earlier call is still in what Claude Code sends. The earlier call must be an
// ancestor in the chain (a message on another branch, or before a compaction, is not sent with it).

/** Chars of written text remembered at most: memory stays bounded whatever the size of the log. */
const MAX_REMEMBERED_CHARS = 2 * 1024 * 1024;
/** Texts remembered per file: an edit repeats what one of the last few calls on its file wrote. */
const MAX_TEXTS_PER_FILE = 8;
/** Steps up the chain at most per lookup when checking that the earlier call is an ancestor. */
const MAX_ANCESTOR_STEPS = 20_000;

interface Written {
  toolId: string;
  tool: string;
  /** The line that holds the call. */
  uuid: string;
  text: string;
  forgotten?: boolean;
}

interface ChainLink {
  parent: string | null;
  /** Position in the file: a parent comes before its children. */
  index: number;
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
  private readonly links = new Map<string, ChainLink>();
  private rememberedChars = 0;

  /** Records a line's place in the chain (every line from the resumed part on, in file order). */
  noteLine(uuid: string | undefined, parentUuid: string | null | undefined, index: number): void {
    if (uuid) this.links.set(uuid, { parent: parentUuid ?? null, index });
  }

  /** Remembers a text written to `path` by a call kept verbatim. */
  add(path: string, text: string, toolId: string, tool: string, uuid: string): void {
    const written: Written = { toolId, tool, uuid, text };
    const list = this.byPath.get(path) ?? [];
    list.push(written);
    this.byPath.set(path, list);
    this.order.push({ path, written });
    this.rememberedChars += text.length;
    if (list.length > MAX_TEXTS_PER_FILE) this.forget(list.shift()!);
    while (this.rememberedChars > MAX_REMEMBERED_CHARS && this.forgotten < this.order.length) this.forgetOldest();
  }

  /** The newest earlier call, on this line's own chain, whose written text holds `text`. */
  find(path: string, text: string, uuid: string): WrittenMatch | undefined {
    const list = this.byPath.get(path);
    if (!list) return undefined;
    const budget = { steps: MAX_ANCESTOR_STEPS };
    for (let i = list.length - 1; i >= 0; i--) {
      const written = list[i];
      if (written.text.length < text.length || !written.text.includes(text)) continue;
      if (!this.isAncestorOrSelf(written.uuid, uuid, budget)) continue;
      return { toolId: written.toolId, tool: written.tool, whole: written.text.length === text.length };
    }
    return undefined;
  }

  private isAncestorOrSelf(ancestor: string, uuid: string, budget: { steps: number }): boolean {
    const floor = this.links.get(ancestor)?.index;
    if (floor === undefined) return false;
    let at: string | null = uuid;
    while (at && budget.steps-- > 0) {
      if (at === ancestor) return true;
      const link = this.links.get(at);
      // Past the ancestor's place in the file: it is on another branch.
      if (!link || link.index < floor) return false;
      at = link.parent;
    }
    return false;
  }

  private forget(written: Written): void {
    if (written.forgotten) return;
    written.forgotten = true;
    this.rememberedChars -= written.text.length;
  }

  private forgetOldest(): void {
    const oldest = this.order[this.forgotten];
    this.order[this.forgotten++] = undefined as never;
    if (oldest.written.forgotten) return;
    const list = this.byPath.get(oldest.path)!;
    list.splice(list.indexOf(oldest.written), 1);
    if (list.length === 0) this.byPath.delete(oldest.path);
    this.forget(oldest.written);
  }
}
