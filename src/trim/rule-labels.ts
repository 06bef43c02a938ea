// How a trim's report names each rule it applied: one wording for `cmv trim`, the dashboard's
// trim preview and anything else that shows a trim's counts, so they all read alike.

import type { RemovalRule } from './options.js';

export const RULE_LABELS: Record<RemovalRule, string> = {
  thinkingBlocks: 'thinking blocks removed',
  toolResultsStubbed: 'tool results stubbed',
  toolResultImages: 'images in tool results stubbed',
  userImages: 'pasted images stubbed',
  toolInputsStubbed: 'tool inputs stubbed (the file holds them)',
  repeatedTextsStubbed: 'edit texts pointing back to the earlier call that wrote them',
  heldRunsStubbed: 'tool inputs partly stubbed (the runs of lines the file holds)',
  supersededTextsStubbed: 'written texts a later call shows again or replaced, stubbed',
  plansStubbed: 'plans their approved result repeats, stubbed',
  todoListsShortened: 'superseded todo lists cut to the items each call changed',
  confirmationsShortened: 'edit confirmations without the path their call names',
  supersededResults: 'results superseded by the same call later, pointing to it',
  errorEchoesStubbed: 'failed edits whose error repeats the old_string, pointing back to the call',
  errorsClipped: 'long error outputs clipped',
  defaultValuesDropped: 'fields at their default value dropped (is_error false, replace_all false)',
  toolUseResultSidecars: 'toolUseResult sidecars dropped',
  emptiedLines: 'lines left empty, removed',
  fileHistorySnapshots: 'file-history snapshots dropped',
  queueOperations: 'queue operations dropped',
  progressLines: 'progress lines dropped',
  recordedRequestLines: 'recorded API requests dropped',
  clientBookkeepingLines: 'client bookkeeping lines dropped',
  systemNoticeLines: 'system notices dropped',
  linesBeforeBoundary: 'lines before the last compaction dropped',
  relinkedParents: 'parents re-linked',
  usageRewritten: 'usage figures rewritten',
};

/** The label of a rule; a name this version does not know (from an older report) as it is. */
export function ruleLabel(rule: string): string {
  return (RULE_LABELS as Record<string, string>)[rule] ?? rule;
}
