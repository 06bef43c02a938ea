// A log cut at one of its messages, as Claude Code forks a session at a message
// (`--resume-session-at`, the SDK's forkSession(upToMessageId)): every line up to the message, and
// the rest of the same API response and the tool results that answer it, so no tool call is left
// without its result. What follows is dropped; the message is then the newest leaf of the log.

import { CmvError } from '../errors.js';
import type { Session } from './session.js';
import type { SessionEntry } from './entry.js';

export interface CutAt {
  /** The message chosen. */
  uuid: string;
  /** 0-based line of the chosen message. */
  line: number;
  /** Lines kept (the cut log is lines 0 .. linesKept-1 of the original). */
  linesKept: number;
  linesBefore: number;
}

const isMessage = (e: SessionEntry) => e.type === 'user' || e.type === 'assistant';

/** The message `at` names: its uuid, or a unique prefix of it (4 or more characters). */
export function findMessage(session: Pick<Session, 'conversation'>, at: string): SessionEntry {
  const wanted = at.trim().toLowerCase();
  if (wanted.length < 4)
    throw new CmvError('USAGE', `--at needs a message uuid or a prefix of 4 or more characters, not "${at}"`, { hint: 'the uuid of a user or assistant line of the log, e.g. `jq -r .uuid` on it' });
  const messages = session.conversation.entries.filter((e) => isMessage(e) && e.uuid !== undefined);
  const exact = messages.filter((e) => e.uuid!.toLowerCase() === wanted);
  const found = exact.length > 0 ? exact : messages.filter((e) => e.uuid!.toLowerCase().startsWith(wanted));
  if (found.length === 0)
    throw new CmvError('NOT_FOUND', `no user or assistant message ${at} in the snapshot's log`, { hint: 'give the uuid of a user or assistant line of the log (`jq -r .uuid` on it)' });
  if (found.length > 1)
    throw new CmvError('AMBIGUOUS', `${found.length} messages start with ${at}`, {
      hint: `give more of the uuid: ${found
        .slice(0, 3)
        .map((e) => e.uuid)
        .join(', ')}`,
    });
  return found[0];
}

/** Where to cut the log so it ends with message `at` (see the module comment). */
export function cutAt(session: Pick<Session, 'conversation' | 'lines'>, at: string): CutAt {
  const target = findMessage(session, at);
  if (target.isSidechain && !session.conversation.isSubagentTranscript) {
    throw new CmvError('USAGE', `message ${target.uuid} is a subagent's, not the session's`, { hint: 'choose a message of the main conversation' });
  }
  const byLine = new Map<number, SessionEntry[]>();
  for (const e of session.conversation.entries) {
    const list = byLine.get(e.line);
    if (list) list.push(e);
    else byLine.set(e.line, [e]);
  }
  const response = target.type === 'assistant' ? target.messageId : undefined;
  const pending = new Set<string>();
  const notePending = (e: SessionEntry) => {
    if (e.type === 'assistant') for (const b of e.blocks) if (b.type === 'tool_use' && b.toolId) pending.add(b.toolId);
  };
  notePending(target);
  let last = target.line;
  for (let line = target.line + 1; line < session.lines.length; line++) {
    const entries = (byLine.get(line) ?? []).filter(isMessage);
    if (entries.length === 0) continue;
    const sameResponse = response !== undefined && entries.every((e) => e.type === 'assistant' && e.messageId === response);
    const answers = entries.every((e) => e.type === 'user' && e.blocks.length > 0 && e.blocks.every((b) => b.type === 'tool_result' && b.toolId !== undefined && pending.has(b.toolId)));
    if (!sameResponse && !answers) {
      if (pending.size === 0) break;
      // Other lines before the last result (progress, a side chain) are not the conversation's.
      if (entries.every((e) => e.isSidechain)) continue;
      break;
    }
    for (const e of entries) {
      notePending(e);
      if (e.type === 'user') for (const b of e.blocks) if (b.toolId) pending.delete(b.toolId);
    }
    last = line;
  }
  return { uuid: target.uuid!, line: target.line, linesKept: last + 1, linesBefore: session.lines.length };
}
