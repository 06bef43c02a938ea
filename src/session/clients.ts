// What each Claude Code client does when it resumes a log: the rules of the conversation model
// that differ by client version, kept as data, each with the evidence that showed it.

/** How the client picks the entry it resumes from. */
export type LeafRule = 'newest-timestamp' | 'last-in-file';

export interface ClientRule {
  id: string;
  /** What the client does. */
  does: string;
  /** What showed it (harness run, client source, corpus resume). */
  evidence: string;
}

export interface ClientModel {
  /** The client version this model was proven against (the suite pins it). */
  version: string;
  /** The entry resumed from: the newest timestamp (first in file order on a tie), or the last in file order. */
  leaf: LeafRule;
  /** A compact_boundary's preservedSegment puts the messages it names after the summary. */
  preservedSegments: boolean;
  /** After a ToolSearch result that loads tools (tool_reference blocks) the client adds the user text "Tool loaded.". */
  toolLoadedText: boolean;
  /** Logs over 5 MiB: loading stops at the first line that is not one JSON record. */
  stopsAtMalformedOver5MiB: boolean;
  /** Context (environment, tool lists, reminders) goes in role:"system" messages rather than user text. */
  systemRoleContext: boolean;
  rules: ClientRule[];
}

const PRESERVED: ClientRule = {
  id: 'preserved-segment',
  does: "after /compact the boundary's compactMetadata.preservedSegment {headUuid, anchorUuid, tailUuid} is re-linked: head's parent becomes the anchor (the summary), the anchor's other children hang from the tail, and every entry before the last boundary but the segment is dropped; a segment whose tail-to-head walk breaks is ignored",
  evidence: '2.1.100 cli.js (the function that logs tengu_relink_walk_broken); 2.1.332 harness: a /compact session resumed with the summary, then the preserved assistant text, then the rest',
};

/** Claude Code 2.1.100: the pure-JS client the suite has pinned since the first release. */
export const CLIENT_2_1_100: ClientModel = {
  version: '2.1.100',
  leaf: 'newest-timestamp',
  preservedSegments: true,
  toolLoadedText: false,
  stopsAtMalformedOver5MiB: true,
  systemRoleContext: false,
  rules: [
    {
      id: 'leaf-newest-timestamp',
      does: 'resumes from the entry with the newest timestamp; the first in file order on a tie',
      evidence: 'cli.js picks the max Date.parse(timestamp) over leaf candidates; trim-case C resumes its earlier segment',
    },
    PRESERVED,
    {
      id: 'malformed-over-5mib',
      does: 'a log over 5 MiB is loaded only up to the first line that is not one JSON record',
      evidence: 'trim-case D (a 5.5 MB log) resumed in the harness',
    },
  ],
};

/** Claude Code 2.1.332: the native client on npm today. */
export const CLIENT_2_1_332: ClientModel = {
  version: '2.1.332',
  leaf: 'last-in-file',
  preservedSegments: true,
  toolLoadedText: true,
  stopsAtMalformedOver5MiB: false,
  systemRoleContext: true,
  rules: [
    {
      id: 'leaf-last-in-file',
      does: 'resumes from the last entry in file order, whatever the timestamps say',
      evidence:
        'harness: trim-case C (newest timestamp before the last boundary) resumed its LAST segment; a corpus log of 2.1.119 ending in /exit lines one millisecond older than a caveat line resumed through them',
    },
    PRESERVED,
    {
      id: 'tool-loaded-text',
      does: 'a user message whose tool_result holds tool_reference blocks (ToolSearch loading tools) gets the text "Tool loaded." after its results',
      evidence: 'harness resume of corpus-recent entireio__skills__33 (ToolSearch select:WebFetch)',
    },
    {
      id: 'system-role-context',
      does: 'client context (environment, deferred tools, hook context) is sent as role:"system" messages, one after the prompt',
      evidence: 'every harness resume with the default model claude-opus-5-5',
    },
    {
      id: 'orphan-task-notification',
      does: 'a background task (Bash run_in_background, an async Agent) the log leaves without a notification gets a <task-notification> with status failed, written by the client on resume',
      evidence: 'harness resume of corpus spotter-tool_heavy-v2.1.38 and sessionshare-0ccf1a04-v2.1.15: the notification text is in no line of the log',
    },
    {
      id: 'whole-load-over-5mib',
      does: 'a log over 5 MiB is loaded whole: a line that is not one JSON record is skipped, as in a small log',
      evidence: 'trim-case D (5.5 MB with a broken line) resumed in the harness: the texts after the line are sent (test/e2e/trim-cases.e2e.test.ts)',
    },
    {
      id: 'task-notification-wrapped',
      does: 'a user line with origin.kind "task-notification" is sent inside a <system-reminder> "[SYSTEM NOTIFICATION - NOT USER INPUT]" frame, its text intact',
      evidence: 'harness resume of corpus-recent keparlak__NumWordify__F0',
    },
  ],
};

/** Every client model cmv knows, oldest first. */
export const CLIENT_MODELS: readonly ClientModel[] = [CLIENT_2_1_100, CLIENT_2_1_332];

/** The model cmv uses when no client is named: the one the suite pinned first. */
export const DEFAULT_CLIENT = CLIENT_2_1_100;

/** Compares dotted versions numerically (2.1.99 < 2.1.100). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((p) => Number.parseInt(p, 10));
  const pb = b.split(/[.-]/).map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (Number.isNaN(pa[i]) ? 0 : (pa[i] ?? 0)) - (Number.isNaN(pb[i]) ? 0 : (pb[i] ?? 0));
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The model for a client version: the newest known model at or below it (its rules held when that
 * client was checked; a newer release is assumed to behave like the last one proven until checked).
 */
export function clientModelFor(version: string): ClientModel {
  let found = CLIENT_MODELS[0];
  for (const model of CLIENT_MODELS) if (compareVersions(model.version, version) <= 0) found = model;
  return found;
}

/** Whether `version` is one the suite proves cmv against. */
export function isProvenClient(version: string): boolean {
  return CLIENT_MODELS.some((m) => m.version === version);
}
