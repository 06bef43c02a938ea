// What a trim may do, with the defaults a user gets without flags.

export interface TrimOptions {
  /** Tool results (and large tool inputs) longer than this many characters are stubbed. */
  threshold: number;
  /** Keep the lines before the last compaction boundary. */
  keepHistory: boolean;
  /**
   * With keepHistory: copy the lines before the compaction the resumed path starts from as they
   * are, unread and unstripped. Claude Code never sends them, and the PreCompact hook trimmed them
   * already before that compaction; only what follows is stripped (the hook's speed on long logs).
   */
  historyAsIs?: boolean;
  /** Replace images the user pasted with a stub too. */
  stripUserImages: boolean;
  /** After the lossless passes, evict whole episodes until the session fits this many tokens. */
  budget?: number;
  /** Error results longer than this keep only their head and tail. */
  maxErrorChars: number;
}

export const DEFAULT_TRIM_OPTIONS: TrimOptions = {
  // 300, not 500 (measured in the real client on the 17 long tool-heavy logs, README "Why 300"):
  // under ~300 chars a stub is seldom shorter than the result, and below 300 nothing more goes.
  threshold: 300,
  keepHistory: false,
  stripUserImages: false,
  maxErrorChars: 2000,
};

export function trimOptions(overrides: Partial<TrimOptions> = {}): TrimOptions {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return { ...DEFAULT_TRIM_OPTIONS, ...defined };
}

/** The rules a trim applies, as counted in its report. */
export type RemovalRule =
  | 'thinkingBlocks'
  | 'toolResultsStubbed'
  | 'toolResultImages'
  | 'userImages'
  | 'toolInputsStubbed'
  | 'repeatedTextsStubbed'
  | 'heldRunsStubbed'
  | 'supersededTextsStubbed'
  | 'plansStubbed'
  | 'todoListsShortened'
  | 'confirmationsShortened'
  | 'supersededResults'
  | 'errorEchoesStubbed'
  | 'errorsClipped'
  | 'defaultValuesDropped'
  | 'toolUseResultSidecars'
  | 'emptiedLines'
  | 'fileHistorySnapshots'
  | 'queueOperations'
  | 'progressLines'
  | 'recordedRequestLines'
  | 'clientBookkeepingLines'
  | 'systemNoticeLines'
  | 'linesBeforeBoundary'
  | 'relinkedParents'
  | 'usageRewritten';

export type RemovalCounts = Record<RemovalRule, number>;

export function emptyCounts(): RemovalCounts {
  return {
    thinkingBlocks: 0,
    toolResultsStubbed: 0,
    toolResultImages: 0,
    userImages: 0,
    toolInputsStubbed: 0,
    repeatedTextsStubbed: 0,
    heldRunsStubbed: 0,
    supersededTextsStubbed: 0,
    plansStubbed: 0,
    todoListsShortened: 0,
    confirmationsShortened: 0,
    supersededResults: 0,
    errorEchoesStubbed: 0,
    errorsClipped: 0,
    defaultValuesDropped: 0,
    toolUseResultSidecars: 0,
    emptiedLines: 0,
    fileHistorySnapshots: 0,
    queueOperations: 0,
    progressLines: 0,
    recordedRequestLines: 0,
    clientBookkeepingLines: 0,
    systemNoticeLines: 0,
    linesBeforeBoundary: 0,
    relinkedParents: 0,
    usageRewritten: 0,
  };
}
