// Rules on Claude Code's own compaction summaries (the `isCompactSummary` user line): the client
// lists the work done, pending, the files and the errors met under numbered headings.

import { clipWords, normaliseLabel } from '../labels.js';
import { parentTask } from '../extract-state.js';
import type { DraftNode, GraphBuilder } from '../graph-builder.js';
import { summaryStep, type Rule, type SummaryInput } from './engine.js';

/** The sections of a summary by heading ("7. Pending Tasks:" -> "pending tasks"). */
export function summarySections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const heads = [...text.matchAll(/^\s*(?:\d+\.\s+|#+\s*)(?:\*\*)?([A-Z][A-Za-z ,&/-]{2,40}?)(?:\*\*)?:?(?:\*\*)?\s*$/gm)];
  heads.forEach((m, i) => {
    const end = i + 1 < heads.length ? heads[i + 1].index! : text.length;
    out.set(m[1].toLowerCase().trim(), text.slice(m.index! + m[0].length, end));
  });
  return out;
}

function section(text: string, ...names: RegExp[]): string {
  for (const [name, body] of summarySections(text)) if (names.some((n) => n.test(name))) return body;
  return '';
}

/** Top-level list items of a section ("- x", "1. x"), markup removed. */
export function sectionItems(body: string): string[] {
  const items: string[] = [];
  const lines = body.split('\n');
  const indent = Math.min(...lines.filter((l) => /^\s*(?:[-*]|\d+\.)\s+\S/.test(l)).map((l) => /^\s*/.exec(l)![0].length));
  for (const line of lines) {
    const m = /^(\s*)(?:[-*]|\d+\.)\s+(.+)$/.exec(line);
    if (m && m[1].length === indent) items.push(m[2].replace(/`/g, '').trim());
  }
  return items;
}

/** The lines indented under each top-level item of a section, by the item's text. */
function subItems(body: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const lines = body.split('\n');
  const indent = Math.min(...lines.filter((l) => /^\s*(?:[-*]|\d+\.)\s+\S/.test(l)).map((l) => /^\s*/.exec(l)![0].length));
  let current: string[] | undefined;
  for (const line of lines) {
    const m = /^(\s*)(?:[-*]|\d+\.)\s+(.+)$/.exec(line);
    if (m && m[1].length === indent) out.set(m[2].replace(/`/g, '').trim(), (current = []));
    else if (m && m[1].length > indent && current) current.push(m[2].replace(/`/g, '').trim());
  }
  return out;
}

const label = (text: string, words = 12) => normaliseLabel(clipWords(text.replace(/\*\*/g, '').replace(/\s+/g, ' ').trim(), words));

const CONTINUED = /^This session is being continued from a previous conversation/;

const solved: Rule<SummaryInput> = {
  id: 'summary.problem-solving',
  on: 'summary',
  client: 'compaction summaries carry "Problem Solving" with "Solved:" / "Ongoing:" items (1.0.x to 2.1.x logs)',
  matches: '"Solved: X" and "Ongoing: X" items of the summary\'s Problem Solving section',
  makes: 'a done TASK per solved item, an in-progress one per ongoing item',
  why: "the summary is the session's own record of the work before the compaction",
  match: ({ text }) => CONTINUED.test(text) && /^\s*-\s*(?:Solved|Ongoing|In progress)\s*:/im.test(section(text, /problem solving/)),
  make: ({ text, uuid, last }, state) => {
    for (const item of sectionItems(section(text, /problem solving/))) {
      const m = /^(Solved|Ongoing|In progress|Fixed|Completed)\s*:\s*(.+)$/i.exec(item);
      if (!m) continue;
      const done = /^(?:solved|fixed|completed)$/i.test(m[1]);
      // Work ongoing at a compaction the session went on with is no longer where it stood.
      if (!done && !last) continue;
      const task = state.builder.mention('TASK', label(m[2]), { confidence: 0.9, turn: state.turn, uuid, status: done ? 'completed' : 'in_progress' });
      state.builder.link(task, parentTask(state), 'PART_OF');
    }
  },
  examples: {
    yes: [
      summaryStep(
        'This session is being continued from a previous conversation.\n5. Problem Solving:\n   - Solved: Multi-session rewind now restores all sessions\n   - Ongoing: Integration tests failing\n\n6. All user messages:\n   - "x"',
      ),
    ],
    no: [summaryStep('This session is being continued from a previous conversation.\n5. Problem Solving:\n   The approach was to read the tree.')],
  },
};

const pending: Rule<SummaryInput> = {
  id: 'summary.pending',
  on: 'summary',
  matches: 'the items of the "Pending Tasks" section of the session\'s last compaction summary',
  makes: 'a pending TASK per item (work reported done later moves it on)',
  why: 'the client wrote down what was still to do when it compacted',
  match: ({ text, last }) => last && CONTINUED.test(text) && sectionItems(section(text, /^pending tasks?$/)).some((i) => !/^none\b/i.test(i)),
  make: ({ text, uuid }, state) => {
    for (const item of sectionItems(section(text, /^pending tasks?$/))) {
      if (/^none\b/i.test(item)) continue;
      state.builder.mention('TASK', label(item), { confidence: 0.85, turn: state.turn, uuid, status: 'pending' });
    }
  },
  examples: {
    yes: [summaryStep('This session is being continued from a previous conversation.\n7. Pending Tasks:\n   - Fix junk code in getLastTimestampFromBytes\n\n8. Current Work:\n   x')],
    no: [
      summaryStep('This session is being continued from a previous conversation.\n7. Pending Tasks:\n   - None explicitly requested.\n'),
      summaryStep('This session is being continued from a previous conversation.\n7. Pending Tasks:\n   - Fix x\n', false),
    ],
  },
};

const errors: Rule<SummaryInput> = {
  id: 'summary.errors',
  on: 'summary',
  matches: 'the items of the "Errors and fixes" section: "**problem**: how it was fixed"',
  makes: 'an ERROR per item, fixed when the item or the lines under it say how ("- Fixed by ..."), open when it says CURRENT',
  why: 'the problems met before the compaction still matter to whoever resumes',
  match: ({ text }) => CONTINUED.test(text) && sectionItems(section(text, /^errors?\b/)).some((i) => !/^(?:none|no errors)\b/i.test(i)),
  make: ({ text, uuid }, state) => {
    const body = section(text, /^errors?\b/);
    const under = subItems(body);
    for (const item of sectionItems(body)) {
      if (/^(?:none|no errors)\b/i.test(item)) continue;
      const m = /^\*\*(.+?)\*\*:?\s*(.*)$/.exec(item) ?? /^([^:]{4,120}):\s*(.*)$/.exec(item);
      // "**WebSocket 502 Error**:" with "- Fixed by updating to /v1/updates" below it, or "**X**: Fixed by:" and the
      // steps below: the lines under the item say how it was fixed.
      const below = under.get(item) ?? [];
      if (m && (m[2].trim() === '' || /^(?:fixed|resolved|solved)(?: by)?:?$/i.test(m[2].trim()))) {
        const how = m[2].trim() === '' ? below.find((l) => /^(?:fixed|resolved|solved)\b/i.test(l)) : below[0] && `${m[2].trim().replace(/:$/, '')} ${below[0]}`;
        if (how) m[2] = how;
      }
      // "**Error**: Test compilation failure - X undefined": a bold word that only says "error" names nothing.
      const generic = m && /^(?:errors?|issues?|problems?|bugs?|failures?|current)\s*\d*$/i.test(m[1].trim());
      const problem = (m ? (generic ? m[2] : m[1]) : item).replace(/\s*\((?:CURRENT|current)\)\s*/, '').replace(/^(?:CURRENT|Current)\s*:\s*/, '');
      const open = /\bCURRENT\b/.test(item) || !m || (!generic && m[2].trim() === '');
      // The fix says where the problem was ("Added strconv to imports in committed.go"): a few of its words go with it.
      const fix =
        m && !generic
          ? m[2]
              .replace(/\*\*|`/g, '')
              .split(/(?<=[a-z0-9)"'])\.\s+/)[0]
              .trim()
          : '';
      const text = fix && !open ? `${problem.replace(/\*\*|`/g, '').trim()}: ${fix}` : problem;
      state.builder.mention('ERROR', label(text, 14), { confidence: 0.9, turn: state.turn, uuid, status: open ? 'failed' : 'completed', fuzzy: false });
    }
  },
  examples: {
    yes: [
      summaryStep('This session is being continued from a previous conversation.\n4. Errors and fixes:\n   - **Missing `strconv` import**: Added "strconv" to imports\n\n5. Problem Solving:\n   x'),
      summaryStep(
        'This session is being continued from a previous conversation.\n4. **Errors and Fixes:**\n   - **WebSocket 502 Error**:\n     - Server returned 502\n     - Fixed by updating the path to /v1/updates\n\n5. Problem Solving:\n   x',
      ),
    ],
    no: [summaryStep('This session is being continued from a previous conversation.\n4. Errors and fixes:\n   - None\n')],
  },
};

/** "**`checkpoint/committed.go`** - Added ..." -> the path, when the item says the file was changed. */
export function summaryFile(item: string): string | undefined {
  const m = /^\*{0,2}([\w./@~-]+\.[\w]+|[\w./-]+\/)\*{0,2}\s*(?:\([^)]*\))?\s*[-–—:]*\s*(.*)$/.exec(item.replace(/`/g, ''));
  if (!m || (!/\//.test(m[1]) && !/\.\w{1,5}$/.test(m[1]))) return undefined;
  if (/^(?:read|reviewed|examined|viewed|referenced|existing|understood|context)\b/i.test(m[2])) return undefined;
  return m[1];
}

const files: Rule<SummaryInput> = {
  id: 'summary.files',
  on: 'summary',
  matches: 'the files named at the head of the items of "Files and Code Sections", unless the item says it was only read',
  makes: 'a FILE per path, modified',
  why: "the files the work before the compaction changed are still the session's",
  match: ({ text }) => CONTINUED.test(text) && sectionItems(section(text, /^files/)).some((i) => summaryFile(i) !== undefined),
  make: ({ text, uuid }, state) => {
    for (const item of sectionItems(section(text, /^files/))) {
      const path = summaryFile(item);
      if (path) state.builder.mention('FILE', path, { confidence: 0.85, turn: state.turn, uuid, status: 'modified', fuzzy: false });
    }
  },
  examples: {
    yes: [
      summaryStep(
        'This session is being continued from a previous conversation.\n3. Files and Code Sections:\n   - **`checkpoint/checkpoint.go`** - Added types for multi-session support:\n     ```go\n     type A struct{}\n     ```\n',
      ),
    ],
    no: [summaryStep('This session is being continued from a previous conversation.\n3. Files and Code Sections:\n   - **`README.md`** - Read to understand the project\n')],
  },
};

export const SUMMARY_RULES: Rule<SummaryInput>[] = [solved, pending, errors, files];

/**
 * The parts of a Claude Code compaction summary a later compaction must keep: the files, the
 * errors and fixes, the pending tasks and the next step, as the summary wrote them (code blocks
 * left out). Undefined when the text is no such summary or holds none of them.
 */
export function carriedFromSummary(text: string): string | undefined {
  if (!CONTINUED.test(text)) return undefined;
  const parts: string[] = [];
  const fileList = sectionItems(section(text, /^files/))
    .map(summaryFile)
    .filter((f): f is string => f !== undefined);
  if (fileList.length) parts.push(`Files: ${[...new Set(fileList)].join(', ')}`);
  const list = (title: string, ...names: RegExp[]) => {
    const items = sectionItems(section(text, ...names)).filter((i) => !/^none\b/i.test(i));
    if (items.length) parts.push(`${title}:\n${items.map((i) => `- ${i}`).join('\n')}`);
  };
  list('Errors and fixes', /^errors?\b/);
  list('Pending tasks', /^pending tasks?$/);
  const next = section(text, /next step/)
    .replace(/```[\s\S]*?```/g, '')
    .trim();
  if (next)
    parts.push(
      `Next step: ${next
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .join(' ')
        .slice(0, 600)}`,
    );
  return parts.length ? `From Claude Code's earlier summary:\n${parts.join('\n')}` : undefined;
}

/**
 * Summaries name files relative to where the work was ("checkpoint/committed.go" for
 * "cmd/entire/cli/checkpoint/committed.go"): a summary path that ends a path the tools named is
 * that file; the others take the folder the resolved ones had in front.
 */
export function resolveSummaryPaths(builder: GraphBuilder): void {
  const files = builder.all('FILE');
  const fromSummary = files.filter((f) => f.rules.includes('summary.files') && !f.rules.some((r) => r.startsWith('file.')));
  const others = files.filter((f) => !fromSummary.includes(f));
  const prefixes = new Set<string>();
  const unresolved: { file: DraftNode; prefix?: string }[] = [];
  for (const file of fromSummary) {
    const longer = others.filter((o) => o.label.endsWith(`/${file.label}`));
    if (longer.length === 1) {
      // A bare name ("testenv.go") says nothing of the folder the summary's paths start from.
      if (file.label.includes('/')) prefixes.add(longer[0].label.slice(0, longer[0].label.length - file.label.length));
      builder.merge(file, longer[0]);
      continue;
    }
    // "strategy/common.go" beside a folder the tools named "cmd/entire/cli/strategy": the same folder.
    const head = file.label.split('/')[0];
    const folder = file.label.includes('/') ? others.map((o) => o.label).find((l) => l.endsWith(`/${head}`) || l.includes(`/${head}/`)) : undefined;
    const prefix = folder ? folder.slice(0, folder.indexOf(`/${head}`) + 1) : undefined;
    if (prefix) prefixes.add(prefix);
    unresolved.push({ file, prefix });
  }
  const only = prefixes.size === 1 ? [...prefixes][0] : undefined;
  for (const { file, prefix } of unresolved) {
    const base = prefix ?? only;
    if (!base || file.label.startsWith('/') || file.label.startsWith(base)) continue;
    const into = builder.mention('FILE', `${base}${file.label}`, { confidence: file.confidence, turn: file.firstTurn, status: 'modified', fuzzy: false, rule: 'summary.files' });
    if (into) builder.merge(file, into);
  }
}
