// Whether a file read as a session is a Claude Code conversation at all: every command that
// reads one session refuses empty, binary and foreign JSONL the same way.

import { CmvError } from '../errors.js';
import type { Session } from './session.js';

/** Reason code of a log that holds no conversation (summary-only files): skipped, not failed, by a batch. */
export const NO_CONVERSATION = 'no-conversation';

/** Throws BAD_INPUT unless the session holds at least one user or assistant message. */
export function assertSessionLog(session: Pick<Session, 'path' | 'lines' | 'conversation'>): void {
  const c = session.conversation;
  if (c.entries.length === 0) {
    const lines = session.lines.filter((l) => l.status !== 'blank').length;
    throw new CmvError('BAD_INPUT', lines === 0 ? `${session.path} is empty` : `${session.path} is not a Claude Code session log: none of its ${lines} lines is a JSON record`, {
      hint: 'pass a .jsonl log from ~/.claude/projects',
    });
  }
  if (!c.entries.some((e) => e.type === 'user' || e.type === 'assistant')) {
    throw new CmvError('BAD_INPUT', `${session.path} holds no user or assistant messages: nothing to analyse`, {
      hint: 'Claude Code leaves such files (titles, snapshots) beside real sessions',
      details: { reason: NO_CONVERSATION },
    });
  }
}
