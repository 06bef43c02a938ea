// The one shape of an entry and of a block's info, whoever builds them (entry.ts from a parsed
// record, skim.ts from the bytes): every field present, in one order.

import type { BlockInfo, SessionEntry } from './entry.js';

/**
 * A block's info with every field present, in one order, whoever reads it (toEntry, skim): all of
 * them share one hidden class, so the code that reads blocks is optimised once, not again for each
 * combination of fields a log happens to show.
 */
export function blockInfo(type: string, chars: number): BlockInfo {
  return { type, chars, blank: undefined, toolId: undefined, name: undefined, isError: undefined, loadsTools: undefined };
}

/**
 * An entry with every field present (undefined where unread), in toEntry's order: an entry skimmed
 * and one parsed share one hidden class (see blockInfo).
 */
export function blankEntry(line: number, record: number): SessionEntry {
  return {
    line,
    record,
    type: 'unknown',
    subtype: undefined,
    uuid: undefined,
    parentUuid: undefined,
    logicalParentUuid: undefined,
    sessionId: undefined,
    timestamp: undefined,
    version: undefined,
    cwd: undefined,
    gitBranch: undefined,
    isSidechain: false,
    agentId: undefined,
    isMeta: false,
    isCompactSummary: false,
    isVisibleInTranscriptOnly: false,
    isApiErrorMessage: false,
    role: undefined,
    messageId: undefined,
    requestId: undefined,
    model: undefined,
    usage: undefined,
    derived: undefined,
    blocks: [],
    contentIsString: false,
    toolUseResultChars: 0,
    leafUuid: undefined,
    preservedSegment: undefined,
  };
}
