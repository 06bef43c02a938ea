// Labels that open a status report ("Completed: X", "Next steps: Y", "Fixed: Z") and the
// bulleted lists written under such a label ("Remaining:" then "- a", "- b").

import { decisionIn } from './decisions.js';

export type Report = 'completed' | 'fixed' | 'in_progress' | 'activity' | 'pending' | 'files' | 'error';

/** Labels that open a status report: "Completed: X", "Next steps: Y". */
const REPORT_LABELS: [RegExp, Report][] = [
  [/^(?:fixed|resolved|patched|repaired)$/, 'fixed'],
  [
    /^(?:completed?|done|implemented|added|deployed|shipped|finished|published|migrated|revised|built|wrote|written|set up|configured|installed|merged|released|refactored|removed|extracted|submitted|pushed|committed|enabled|delivered|achieved|verified|restructured|reorgani[sz]ed|rewritten|rewrote|changes|improved|optimi[sz]ed|tuned|trained|drafted|generated|imported|integrated)$/,
    'completed',
  ],
  [/^(?:working on|in progress|wip|currently|ongoing|now|doing|implementing|building|adding)$/, 'in_progress'],
  [/^(?:running|checking|investigating|debugging|testing|profiling|measuring|trying|comparing|reviewing)$/, 'activity'],
  [/^(?:todo|to do|to-do|next|next up|next steps?|pending|remaining|still to do|still need|still needs|need|needs|needed|left|blocked|blocked on|follow[- ]ups?|open|later|outstanding)$/, 'pending'],
  [/^(?:files?|created|creating|updated|modified|changed|edited|touched|saved|new files?)$/, 'files'],
  [/^(?:errors?|bugs?|issues?|problems?|root cause|cause|deeper cause|failure|found|secondary|snag|hit a snag|blocker|regression)$/, 'error'],
];

export function reportKind(label: string): Report | undefined {
  const key = label.toLowerCase().trim();
  return REPORT_LABELS.find(([re]) => re.test(key))?.[1];
}

/**
 * "Remaining:" followed by a bulleted list: each item is a report of that kind, as if written
 * "Remaining: item". Only for labels the reports and decisions know.
 */
export function listsUnderHeaders(text: string): string {
  const lines = text.split(/\r?\n/);
  let header: string | undefined;
  return lines
    .map((line) => {
      const heading = /(?:^\s*(?:#{1,6}\s*)?|[.!?]\s+)(?:\*\*)?([A-Za-z][A-Za-z -]{1,30}?)(?:\*\*)?\s*:\s*(?:\*\*)?\s*$/.exec(line);
      if (heading && (reportKind(heading[1]) || decisionIn(`${heading[1]}: x`))) {
        header = heading[1];
        return line.slice(0, heading.index + (/^[.!?]/.test(heading[0]) ? 1 : 0));
      }
      const item = /^\s*(?:[-*+•]|\d{1,2}[.)])\s+(.+)$/.exec(line);
      if (header && item) return `${header}: ${item[1]}`;
      if (line.trim() !== '') header = undefined;
      return line;
    })
    .join('\n');
}
