// `cmv verify`: the proof that a trimmed log lost nothing Claude Code would send. Every user and
// assistant text of the original's resumed conversation must appear verbatim and in order in the
// trimmed one, every tool call of it must still be paired, and the file must be structurally sound.

import { createHash } from 'node:crypto';
import type { Session } from '../session/session.js';
import { sentTexts, type MessageText } from '../session/payload.js';
import { isConversational, startsChain, type Conversation } from '../session/conversation.js';
import type { SessionEntry } from '../session/entry.js';
import { CLIENT_MODELS, type ClientModel } from '../session/clients.js';
import { asResumedBy } from '../session/session.js';

export interface TextDigest {
  role: 'user' | 'assistant';
  hash: string;
  chars: number;
  /** The first characters, to say which text went missing. */
  preview: string;
  line: number;
}

export interface OriginalFacts {
  texts: TextDigest[];
  /** Tool ids paired on the original's resumed path. */
  pairedToolIds: string[];
  /** Tool ids already unpaired in the original: not a fault of the trim. */
  unpairedToolIds: string[];
  /** Entries whose parent was already missing in the original (partial logs). */
  danglingUuids: string[];
  /** Lines of the original that are not one JSON record (Claude Code skips them). */
  malformedLines: number;
  /**
   * Entries that root a chain in the original as Claude Code reads it (their parent, through
   * progress lines, is null): a trimmed log that starts a chain there starts it where the original did.
   */
  chainStarts?: string[];
  /**
   * The first lines of the trimmed log are the original's, byte for byte (a trim that copied the
   * history as it is): read for their chain only, their content is not the trim's to answer for.
   */
  copiedLines?: number;
  /** Messages from before the last compaction the client sends after its summary (a preserved segment). */
  preserved?: PreservedMessage[];
}

export interface PreservedMessage {
  uuid: string;
  type: string;
  line: number;
}

/** The original's preserved segment, as its facts carry it. */
export function preservedOf(c: Conversation): PreservedMessage[] {
  return [...c.preserved].filter((e) => e.uuid).map((e) => ({ uuid: e.uuid!, type: e.type, line: e.line }));
}

export type FaultKind =
  | 'missing-text'
  | 'text-out-of-order'
  | 'unpaired-tool-use'
  | 'unpaired-tool-result'
  | 'broken-pair'
  | 'dangling-parent'
  | 'chain-break'
  | 'empty-message'
  | 'duplicate-uuid'
  | 'mixed-session-ids'
  | 'malformed-line'
  | 'preserved-segment-lost';

export interface Fault {
  kind: FaultKind;
  message: string;
  line?: number;
  /** The client versions whose resume shows the fault (absent: every client checked). */
  clients?: string[];
}

export interface VerifyReport {
  ok: boolean;
  /** The client versions whose resume was modelled and checked. */
  clients?: string[];
  texts: { user: { total: number; kept: number }; assistant: { total: number; kept: number } };
  toolPairs: { total: number; intact: number };
  faults: Fault[];
}

export function digestText(text: MessageText): TextDigest {
  return {
    role: text.role,
    hash: createHash('sha1').update(text.text).digest('hex'),
    chars: text.text.length,
    preview: text.text.slice(0, 240).replace(/\s+/g, ' ').slice(0, 60),
    line: text.line,
  };
}

export function originalFacts(session: Session): OriginalFacts {
  const c = session.conversation;
  const onPath = new Set(c.activePath);
  return {
    texts: sentTexts(session).map(digestText),
    pairedToolIds: c.toolPairs.filter((p) => onPath.has(p.use)).map((p) => p.id),
    unpairedToolIds: [...c.unpairedToolUses, ...c.unpairedToolResults].map((t) => t.id),
    danglingUuids: c.danglingParents.map((e) => e.uuid ?? ''),
    malformedLines: session.malformedLines.length + session.gluedLines.length,
    chainStarts: chainStartsOf(c),
    preserved: preservedOf(c),
  };
}

/** Conversational entries of the main chain that root a chain, as Claude Code reads the log. */
export function chainStartsOf(c: Conversation): string[] {
  // The same for every client's model of the same lines (they share entries and index): found once.
  const known = chainStartsByEntries.get(c.entries);
  if (known?.byUuid === c.byUuid) return known.starts;
  const starts = c.entries.filter((e) => e.uuid && isConversational(e) && !e.isSidechain && startsChain(e, c.byUuid)).map((e) => e.uuid!);
  chainStartsByEntries.set(c.entries, { byUuid: c.byUuid, starts });
  return starts;
}

const chainStartsByEntries = new WeakMap<SessionEntry[], { byUuid: Map<string, SessionEntry>; starts: string[] }>();

/** Structural faults of a log on its own: what Claude Code would silently drop or misread. */
export function structuralFaults(
  session: Session,
  inherited: Pick<OriginalFacts, 'unpairedToolIds' | 'danglingUuids' | 'malformedLines' | 'chainStarts' | 'copiedLines'> = { unpairedToolIds: [], danglingUuids: [], malformedLines: 0 },
): Fault[] {
  const c = session.conversation;
  const faults: Fault[] = [];
  const inheritedUnpaired = new Set(inherited.unpairedToolIds);
  const inheritedDangling = new Set(inherited.danglingUuids);
  const originalStarts = inherited.chainStarts ? new Set(inherited.chainStarts) : undefined;
  const malformed = session.lines.filter((l) => l.status === 'malformed' || l.status === 'glued');
  if (malformed.length > inherited.malformedLines) {
    for (const line of malformed) faults.push({ kind: 'malformed-line', message: `line ${line.index + 1} is not one JSON record`, line: line.index + 1 });
  }
  for (const use of c.unpairedToolUses) {
    if (!inheritedUnpaired.has(use.id)) faults.push({ kind: 'unpaired-tool-use', message: `tool call ${use.id} has no result`, line: use.entry.line + 1 });
  }
  for (const result of c.unpairedToolResults) {
    if (!inheritedUnpaired.has(result.id)) faults.push({ kind: 'unpaired-tool-result', message: `tool result ${result.id} answers no call`, line: result.entry.line + 1 });
  }
  for (const entry of c.danglingParents) {
    if (!inheritedDangling.has(entry.uuid ?? '')) faults.push({ kind: 'dangling-parent', message: `parent ${entry.parentUuid} of ${entry.uuid} is not in the file`, line: entry.line + 1 });
  }
  const seen = new Set<string>();
  const sessionIds = new Set<string>();
  let conversationalSeen = false;
  for (const entry of c.entries) {
    if (entry.uuid) {
      if (seen.has(entry.uuid)) faults.push({ kind: 'duplicate-uuid', message: `uuid ${entry.uuid} appears twice`, line: entry.line + 1 });
      seen.add(entry.uuid);
    }
    if (entry.sessionId && !entry.isSidechain) sessionIds.add(entry.sessionId);
    if (isConversational(entry) && !entry.isSidechain) {
      const copied = entry.line < (inherited.copiedLines ?? 0);
      const isEmpty = !copied && (entry.blocks.length === 0 || (entry.contentIsString && entry.blocks[0].chars === 0));
      if (isEmpty) faults.push({ kind: 'empty-message', message: `${entry.type} message ${entry.uuid} has no content`, line: entry.line + 1 });
      // A null parent after the first message makes Claude Code drop everything before it: a
      // fault unless the original, as Claude Code reads it, already started a chain there (after
      // plan mode clears the context, the new chain hangs from a progress line whose parent is null).
      const startedInOriginal = originalStarts !== undefined && entry.uuid !== undefined && originalStarts.has(entry.uuid);
      if (entry.parentUuid === null && conversationalSeen && !entry.isCompactSummary && !startedInOriginal) {
        faults.push({ kind: 'chain-break', message: `${entry.type} message ${entry.uuid} starts a new chain mid-file`, line: entry.line + 1 });
      }
      conversationalSeen = true;
    }
    if (entry.type === 'system' && entry.subtype === 'compact_boundary') conversationalSeen = false;
  }
  if (sessionIds.size > 1) faults.push({ kind: 'mixed-session-ids', message: `the file holds ${sessionIds.size} session ids: ${[...sessionIds].join(', ')}` });
  return faults;
}

type Inherited = Pick<OriginalFacts, 'unpairedToolIds' | 'danglingUuids' | 'malformedLines' | 'chainStarts' | 'copiedLines'>;

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) => a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]));

/**
 * structuralFaults reads only what no client rule changes (the lines, the records, tool pairs,
 * parents): every client's model of one log (which share those) gets the same faults, found once.
 */
const structuralByEntries = new WeakMap<SessionEntry[], { inherited: Inherited; faults: Fault[] }>();

function structuralFaultsOnce(session: Session, inherited: Inherited): Fault[] {
  const known = structuralByEntries.get(session.conversation.entries);
  if (
    known &&
    known.inherited.malformedLines === inherited.malformedLines &&
    known.inherited.copiedLines === inherited.copiedLines &&
    sameList(known.inherited.unpairedToolIds, inherited.unpairedToolIds) &&
    sameList(known.inherited.danglingUuids, inherited.danglingUuids) &&
    sameList(known.inherited.chainStarts, inherited.chainStarts)
  ) {
    return known.faults;
  }
  const faults = structuralFaults(session, inherited);
  structuralByEntries.set(session.conversation.entries, { inherited, faults });
  return faults;
}

/** Checks a trimmed log against facts taken from its original. */
export function verifyAgainst(original: OriginalFacts, trimmed: Session, originalSessionIds = 1, trimmedTexts: TextDigest[] = sentTexts(trimmed).map(digestText)): VerifyReport {
  const faults: Fault[] = [];
  // A message a compaction preserved is sent after the summary though it stands before the boundary:
  // its loss is named as such (its texts are also missing below).
  if (original.preserved?.length) {
    const have = new Set(trimmed.conversation.entries.map((e) => e.uuid));
    for (const e of original.preserved) {
      if (have.has(e.uuid)) continue;
      faults.push({
        kind: 'preserved-segment-lost',
        message: `${e.type} message ${e.uuid} (line ${e.line + 1}) is kept across the last /compact (compactMetadata.preservedSegment) and sent after the summary, but the trimmed log lacks it`,
        line: e.line + 1,
      });
    }
  }
  // Each original text must be found in order: a subsequence match over the trimmed texts.
  const kept = { user: 0, assistant: 0 };
  const total = { user: 0, assistant: 0 };
  let cursor = 0;
  for (const text of original.texts) {
    total[text.role]++;
    let found = -1;
    for (let i = cursor; i < trimmedTexts.length; i++) {
      if (trimmedTexts[i].hash === text.hash && trimmedTexts[i].role === text.role) {
        found = i;
        break;
      }
    }
    if (found >= 0) {
      kept[text.role]++;
      cursor = found + 1;
    } else {
      const elsewhere = trimmedTexts.some((t) => t.hash === text.hash);
      faults.push({
        kind: elsewhere ? 'text-out-of-order' : 'missing-text',
        message: `${text.role} text from line ${text.line + 1} ${elsewhere ? 'is out of order' : 'is missing'}: "${text.preview}"`,
        line: text.line + 1,
      });
    }
  }
  const c = trimmed.conversation;
  const onPath = new Set(c.activePath);
  const intactIds = new Set(c.toolPairs.filter((p) => onPath.has(p.use) && onPath.has(p.result)).map((p) => p.id));
  let intact = 0;
  for (const id of original.pairedToolIds) {
    if (intactIds.has(id)) intact++;
    else faults.push({ kind: 'broken-pair', message: `tool call ${id} is no longer paired with its result on the resumed path` });
  }
  const structural = structuralFaultsOnce(trimmed, original).filter((f) => !(f.kind === 'mixed-session-ids' && originalSessionIds > 1));
  faults.push(...structural);
  return {
    ok: faults.length === 0,
    texts: { user: { total: total.user, kept: kept.user }, assistant: { total: total.assistant, kept: kept.assistant } },
    toolPairs: { total: original.pairedToolIds.length, intact },
    faults,
  };
}

/**
 * The texts a client sends for a conversation, in the order sent, from each entry's own texts:
 * with the ones the client adds for what a line holds (2.1.332's "Tool loaded."), so a trim that
 * stubs a ToolSearch result shows as a lost text.
 */
export function clientTexts(c: Conversation, textsOf: (entry: SessionEntry) => TextDigest[] | undefined): TextDigest[] {
  const texts: TextDigest[] = [];
  for (const entry of c.sentMessages) {
    texts.push(...(textsOf(entry) ?? []));
    if (c.client.toolLoadedText && entry.blocks.some((b) => b.loadsTools)) texts.push(digestText({ role: 'user', text: 'Tool loaded.', clientAdded: true, line: entry.line }));
  }
  return texts;
}

/**
 * Runs one check per client model and merges them: ok only when every client resumes the trimmed
 * log with all it sends from the original. A fault seen by only some clients names them.
 */
export function mergeClientReports(reports: Array<{ client: ClientModel; report: VerifyReport }>): VerifyReport {
  const [first] = reports;
  const byKey = new Map<string, Fault>();
  for (const { client, report } of reports) {
    for (const fault of report.faults) {
      const key = `${fault.kind}\u0000${fault.message}`;
      const seen = byKey.get(key);
      if (seen) seen.clients!.push(client.version);
      else byKey.set(key, { ...fault, clients: [client.version] });
    }
  }
  const faults = [...byKey.values()].map((f) => (f.clients!.length === reports.length ? { ...f, clients: undefined } : f));
  return {
    ...first.report,
    ok: reports.every((r) => r.report.ok),
    clients: reports.map((r) => r.client.version),
    faults,
  };
}

/** Verifies a trimmed log against its original for each client model (default: every model cmv knows). */
export function verifySessions(original: Session, trimmed: Session, clients: readonly ClientModel[] = CLIENT_MODELS): VerifyReport {
  const ids = new Set(original.conversation.entries.filter((e) => e.sessionId && !e.isSidechain).map((e) => e.sessionId));
  return mergeClientReports(
    clients.map((client) => {
      const o = asResumedBy(original, client);
      const t = asResumedBy(trimmed, client);
      return { client, report: verifyAgainst(originalFacts(o), t, ids.size) };
    }),
  );
}
