// `cmv branch --with-resume`: the snapshot's resume block put in front of the branched session, as
// the two lines Claude Code writes for a compaction, where the chain Claude Code resumes begins;
// checked before anything is written: the resumed chain starts at the block and sends the rest.

import type { Session } from '../session/session.js';
import { readRecord } from '../session/payload.js';
import { spliceSession } from '../session/splice.js';
import { resumePreamble } from '../graph/snapshot-graph.js';
import type { ResumeTier } from '../graph/resume-block.js';
import type { SessionGraph } from '../graph/model.js';
import { CmvError } from '../errors.js';

export interface ResumeBlockOptions {
  tier?: ResumeTier;
  /** Where the full history can be read, named in the summary. */
  transcriptPath?: string;
}

export interface ResumedSession {
  session: Session;
  text: string;
  tokens: number;
  summaryUuid: string;
}

const isBoundary = (e: { type: string; subtype?: string }) => e.type === 'system' && e.subtype === 'compact_boundary';

/** `session` with the resume block of `graph` in front of the chain Claude Code resumes. */
export function withResumeBlock(session: Session, graph: SessionGraph, options: ResumeBlockOptions = {}): ResumedSession {
  const c = session.conversation;
  const start = c.activePath[0];
  // The message that takes the summary as its parent: the chain's root, or, when the chain
  // starts at a compaction, the message after that boundary (its own summary, kept after ours).
  const first = start && isBoundary(start) ? c.activePath.find((e) => e.parentUuid === start.uuid) : start;
  if (!first?.uuid) throw new CmvError('BAD_INPUT', 'the branch holds no conversation to put a resume block in front of', { hint: 'branch without --with-resume' });
  const record = readRecord(session, first);
  const preamble = resumePreamble(graph, record, { tier: options.tier, transcriptPath: options.transcriptPath });
  if (!preamble.text) throw new CmvError('BAD_INPUT', 'the snapshot has nothing to resume from: its session graph holds no prompt yet', { hint: 'branch without --with-resume' });

  // Claude Code drops every line before the file's last compact boundary when it loads a log, so
  // the block goes right after the boundary that precedes the chain, or at the top.
  const boundary = c.compactBoundaries.filter((b) => b.line < first.line).at(-1);
  const at = boundary ? boundary.line + 1 : 0;
  const rewritten = new Map([[first.line, Buffer.from(JSON.stringify({ ...record, parentUuid: preamble.summaryUuid }))]]);
  const resumed = spliceSession(session, at, preamble.lines, rewritten);

  const fault = resumeFault(resumed, at, [preamble.summaryUuid, ...c.sentMessages.map((e) => e.uuid)]);
  if (fault) throw new CmvError('VERIFY_FAILED', `the branch with its resume block failed verification: ${fault}; nothing was written`, { hint: 'branch without --with-resume' });
  return { session: resumed, text: preamble.text, tokens: preamble.tokens, summaryUuid: preamble.summaryUuid };
}

/** What is wrong with a resumed branch: its chain must start at the block (line `at`) and send `expected`. */
function resumeFault(resumed: Session, at: number, expected: (string | undefined)[]): string | undefined {
  const root = resumed.conversation.activePath[0];
  if (!root || !isBoundary(root) || root.line !== at) return 'the resumed chain does not start at the resume block';
  const sent = resumed.conversation.sentMessages.map((e) => e.uuid);
  if (sent.length !== expected.length || sent.some((uuid, i) => uuid !== expected[i])) return 'the resumed chain does not send the summary and then every message the branch sent before';
  return undefined;
}
