// Rules on the assistant's texts and the user's prompts: the report of work done a reply lists
// item by item, then the older prose rules (src/graph/text-facts.ts, prompt-facts.ts) as one
// entry each.

import { textFacts } from '../text-facts.js';
import { promptFacts } from '../prompt-facts.js';
import { clipWords, normaliseLabel } from '../labels.js';
import { reportedDone, type ExtractState } from '../extract-state.js';
import { promptStep, textStep, type PromptInput, type Rule, type TextInput } from './engine.js';

/** Verbs a report of finished work opens an item with. */
const DONE_VERB =
  /^(?:added|fixed|updated|created|removed|changed|moved|implemented|refactored|replaced|renamed|extracted|wrote|rewrote|consolidated|merged|deleted|introduced|extended|converted|ported|increased|reduced|raised|lowered|switched|enabled|disabled|cleaned up|documented|registered|wired|integrated|installed|configured|bumped|upgraded|split|simplified|dropped|restored|adjusted|committed|pushed|closed|created|initialized|set up|exposed|made|now)\b/i;
/** A line led by the file it changed, in bold, outside a list: "**`strategy/x_test.go`** - Added 3 regression tests". */
const FILE_LEAD = /^\s*(\*\*`?[\w./-]+\.\w+`?\*\*\s*[-–—:]\s+\S.*)$/;
/** A list item: "- x", "* x", "1. x", "1) x". */
const ITEM = /^\s*(?:[-*•]|\d+[.)])\s+(.+)$/;
const REPORT_HEADING = /^(?:#+\s*|\*\*)?(?:summary|changes|changes made|what (?:was|i) (?:done|changed|did)|done|completed|fixes|fixed|implementation|results?)\b/im;

/** A list item as a task label: no markup, no file it went into in front, its first sentence, at most 14 words. */
export function doneItemLabel(item: string): string | undefined {
  // "**Committed Checkpoints section** - Updated to show:": a bold name heading the sub-items below
  // it, not a verb of work done.
  const heading = /^\*\*([^*]+)\*\*\s*[-–—:]\s*(.*)$/.exec(item.trim());
  if (heading && !/^`?[\w./-]+\.\w+`?$/.test(heading[1].trim()) && /:\s*$/.test(heading[2])) return undefined;
  // "✅ Created X": the mark says done; the words after it say what.
  let text = item
    .replace(/\*\*|__|`/g, '')
    .replace(/^(?:[✓✔✅☑]\uFE0F?\s*)+/u, '')
    .trim();
  // "strategy/common.go - Added two helpers:" / "common.go: Added ...": the file is on the Files line.
  text = text.replace(/^[\w./-]+\.\w+\s*(?:[-–—:]\s+|\(\w+\)\s*[-–—:]\s*)/, '');
  if (!DONE_VERB.test(text)) return undefined;
  text = text.replace(/^now\s+/i, '');
  text = text.split(/(?<=[a-z0-9)"'])\.\s+(?=[A-Z])|\s+[—–]\s+|:\s*$/)[0];
  const words = text.split(/\s+/);
  if (words.length < 2) return undefined;
  return normaliseLabel(
    words
      .slice(0, 14)
      .join(' ')
      .replace(/[,:;]$/, ''),
  );
}

/** The done items a reply lists; "Added two helpers:" names the code its sub-items open with. */
export function doneItems(text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const m = ITEM.exec(line) ?? FILE_LEAD.exec(line);
    let label = m ? doneItemLabel(m[1]) : undefined;
    if (!label) return;
    if (/:\s*$/.test(m![1])) {
      const indent = /^\s*/.exec(line)![0].length;
      const names: string[] = [];
      for (const next of lines.slice(i + 1)) {
        const sub = ITEM.exec(next);
        if (!sub || /^\s*/.exec(next)![0].length <= indent) break;
        const name = /^\*{0,2}`([^`]+)`/.exec(sub[1].trim())?.[1];
        if (name) names.push(name);
      }
      if (names.length) label = `${label}: ${names.join(', ')}`;
    }
    if (!out.includes(label)) out.push(label);
  });
  return out;
}

const doneList: Rule<TextInput> = {
  id: 'report.done-list',
  on: 'text',
  matches:
    'a reply that lists finished work: two list items or more opening with a verb of work done ("Added", "Fixed", "Updated" ...; after a ✅ mark too), or one under a heading such as "## Summary" or "## Changes"; a line led by the file it changed in bold ("**`x_test.go`** - Added 3 tests") counts as an item',
  makes: "a done TASK per item: its first sentence, without markup or the file it went into; nothing in a turn that moved the session's own task list (the report restates it)",
  why: "the reply's own report of what it did names the work as a person would at a standup",
  match: ({ step }) => {
    const items = doneItems(step.text);
    return items.length >= 2 || (items.length === 1 && REPORT_HEADING.test(step.text));
  },
  make: ({ step }, state: ExtractState) => {
    reportedDone(state, doneItems(step.text), step.uuid);
  },
  examples: {
    yes: [
      textStep('All tests pass. Here is a summary:\n\n1. **`strategy/common.go`** - Added two helpers\n2. Fixed `SaveChanges` to use `resolveAgentType`. Now it works.'),
      textStep('Summary:\n- ✅ Created `number_generator.py` and `data.txt` (in parallel)\n- ✅ Fixed the python call'),
      textStep('## Summary\n\n**`strategy/manual_commit_test.go`** - Added 3 regression tests covering all bug scenarios.'),
    ],
    no: [textStep('Next steps:\n- Add a retry\n- Check the logs'), textStep('I will:\n1. Added? no\n2. look at it')],
  },
};

/** "Done. Updated `docs/x.md` with:" -> "Updated docs/x.md": a reply that opens by saying it finished, then what. */
export function doneLead(text: string): string | undefined {
  const first = text
    .trim()
    .split('\n')[0]
    .replace(/\*\*|__|`/g, '');
  const m = /^(?:all done|done|finished|complete[d]?)[.!:]\s+(?:I've\s+|I have\s+|I\s+(?=\w+ed\b))?(.+)$/i.exec(first);
  if (!m || !DONE_VERB.test(m[1]) || /^now\b/i.test(m[1])) return undefined;
  let clause = m[1].split(/\s+with:?\s*$|:\s*$|(?<=[a-z0-9)"'])\.(?:\s+|$)/)[0];
  // "updated TestX in logger_test.go to verify ..." -> "Updated TestX to verify ...": the Files line names the file.
  clause = clause.replace(/^(\S+\s+\S+)\s+in\s+[\w./-]+\.\w+(?=\s+\S)/, '$1');
  clause = clause.charAt(0).toUpperCase() + clause.slice(1);
  const words = clause.split(/\s+/);
  return words.length >= 2
    ? normaliseLabel(
        words
          .slice(0, 14)
          .join(' ')
          .replace(/[,:;]$/, ''),
      )
    : undefined;
}

const doneLeadRule: Rule<TextInput> = {
  id: 'report.done-lead',
  on: 'text',
  matches: 'a turn\'s last reply that opens by saying it finished, then what: "Done. Updated docs/x.md with:", "Done. Increased the timeout from 20m to 45m."',
  makes: "a done TASK with what it says it did (up to 14 words); nothing in a turn that moved the session's own task list",
  why: 'a reply that reports its work in one line names it as a person would',
  toolSessionsOnly: true,
  match: ({ step, final }) => final && step.role === 'assistant' && doneLead(step.text) !== undefined,
  make: ({ step }, state) => {
    reportedDone(state, [doneLead(step.text)!], step.uuid);
  },
  examples: {
    yes: [
      textStep('Done. Updated `docs/architecture/sessions.md` with:\n\n1. **Rewind section** - added a note'),
      textStep('Done. I updated `TestLogging` in `logger_test.go` to verify the agent name. All tests pass.'),
    ],
    no: [textStep('Done. Now let me run the tests.'), textStep('Updated the plan:', false)],
  },
};

const prose: Rule<TextInput> = {
  id: 'prose.reply',
  on: 'text',
  matches: 'any reply (src/graph/text-facts.ts: status phrases, choices stated in prose, problems met, files named)',
  makes: 'TASK statuses, DECISIONs, ERRORs, FILEs and METRICs the prose states',
  why: 'text-only sessions state their work in prose and nowhere else',
  final: true,
  match: () => true,
  make: ({ step, final }, state) => textFacts(step.text, { role: step.role, uuid: step.uuid, final }, state),
  examples: { yes: [textStep('I went with SQLite instead of JSON files since we need queries.')], no: [textStep('Let me look.')] },
};

const prompt: Rule<PromptInput> = {
  id: 'prompt.ask',
  on: 'prompt',
  matches: 'a real user prompt (src/graph/prompt-facts.ts: the first is the goal; instructions become tasks, choices decisions)',
  makes: 'the GOAL, TASKs asked for, DECISIONs the user settles',
  why: 'what the user asked and settled is the spine of the session',
  final: true,
  match: () => true,
  make: ({ prompt: p, first }, state) => promptFacts(p, state, first),
  examples: { yes: [promptStep('Build a todo app with Next.js', true)], no: [promptStep('thanks')] },
};

/** A line that opens a list of work still to do. */
const OPEN_LEAD =
  /\b(?:next steps?|remaining|still (?:to do|needed|pending|open)|to ?do|follow[- ]ups?|suggest(?:ions|ed)?|recommendations?|findings|opportunit(?:y|ies)|could (?:also )?(?:be )?(?:improved|simplified|cleaned)|left to do|not (?:yet )?(?:done|implemented)|pending|what's left|would you like me to|want me to|should i)\b/i;

/** A labelled line naming the one thing left: "**Recommended Fix:** Implement X", "Next step: run the migration". */
const OPEN_INLINE = /^(?:recommended (?:fix|next step|action)|suggested (?:fix|next step)|next step|remaining work|still to do|left to do)\s*:\s*(\S.{8,})?$/i;

/** A lead-in that asks the user to pick: "should I:", "Would you like me to:". */
const ASKING_LEAD = /\b(?:should i|shall i|would you like(?: me)? to|want me to|do you want(?: me)? to|which (?:one|option)|prefer)\b/i;

/**
 * The items of a reply that lists what is still to do (after a lead-in such as "Next steps:" or
 * "Findings:"). Options the user is asked to pick from ("should I: 1. Delete X? 2. Or update it?")
 * are one open question, not work for each: one item "Decide: X, or Y, or Z".
 */
export function openItems(text: string): string[] {
  const out: string[] = [];
  const options: string[][] = [];
  let open = false;
  let asking = false;
  let carried = false;
  for (const line of text.replace(/```[\s\S]*?```/g, '').split('\n')) {
    if (line.trim() === '') continue;
    const m = ITEM.exec(line);
    const plain = line.replace(/\*\*|__/g, '').trim();
    const inline = m ? undefined : OPEN_INLINE.exec(plain);
    // "**Recommended Fix:**" alone on its line names what the next line says.
    const named = inline?.[1] || (carried && !m ? plain : '');
    carried = inline !== null && inline !== undefined && !inline[1];
    if (named) {
      const label = normaliseLabel(clipWords(named.replace(/`/g, '').split(/(?<=[a-z0-9)])\.\s+/)[0], 12));
      if (label.split(/\s+/).length >= 3 && !out.includes(label)) out.push(label);
    }
    if (inline || named) {
      open = false;
      continue;
    }
    if (!m) {
      open = OPEN_LEAD.test(line);
      asking = open && ASKING_LEAD.test(line);
      if (asking) options.push([]);
      continue;
    }
    if (asking && !/^\s{2,}/.test(line)) options.at(-1)!.push(m[1].replace(/\*\*|`/g, '').trim());
    if (!open || /^\s{2,}/.test(line)) continue;
    const item = m[1].replace(/\*\*|`/g, '').trim();
    if (DONE_VERB.test(item) || /[✓✅]/.test(item)) continue;
    const label = normaliseLabel(
      item
        .split(/\s+[—–-]\s+|(?<=[a-z0-9)])\.\s+/)[0]
        .split(/\s+/)
        .slice(0, 12)
        .join(' '),
    );
    if (label.split(/\s+/).length >= 2 && !out.includes(label)) out.push(label);
  }
  for (const group of options) {
    if (group.length < 2 || !group.slice(1).some((o) => /^or\b/i.test(o))) continue;
    const parts = group.map((o) => clipWords(o.replace(/^or\s+/i, '').replace(/\?\s*$/, ''), 8));
    const asked = new Set(
      group.map((o) =>
        normaliseLabel(
          o
            .split(/\s+[—–-]\s+|(?<=[a-z0-9)])\.\s+/)[0]
            .split(/\s+/)
            .slice(0, 12)
            .join(' '),
        ),
      ),
    );
    const kept = out.filter((l) => !asked.has(l));
    out.length = 0;
    out.push(...kept, normaliseLabel(`Decide: ${parts.join(', or ')}`));
  }
  return out;
}

const openList: Rule<TextInput> = {
  id: 'report.open-list',
  on: 'text',
  matches:
    'the session\'s last reply, its list items after a lead-in naming work still to do ("Next steps:", "Remaining:", "Findings:", "Want me to ..."), or a labelled line naming it ("**Recommended Fix:** X", "Next step: X")',
  makes: 'a pending TASK per item; options the user is asked to pick from ("should I: 1. X? 2. Or Y?") one pending TASK "Decide: X, or Y"',
  why: "where the session stopped, the reply's own list says what was left",
  toolSessionsOnly: true,
  match: ({ step, last }) => last === true && openItems(step.text).length > 0,
  make: ({ step }, state) => {
    for (const label of openItems(step.text)) state.builder.mention('TASK', label, { confidence: 0.9, turn: state.turn, uuid: step.uuid, status: 'pending' });
  },
  examples: {
    yes: [
      textStep('Found 3 opportunities:\n\n1. **Move timestamp utilities** to a shared location\n2. Simplify the multi-session prompt\n\nWant me to apply these?', true, true),
      textStep('Since you could not reproduce it, should I:\n\n1. Delete the `ISSUE.md` file?\n2. Or update it to cover only the batching?\n3. Or leave it as-is?', true, true),
      textStep('The CLI sends base64, not ciphertext.\n\n**Recommended Fix:** Implement `tweetnacl.secretbox` encryption in the session service.', true, true),
    ],
    no: [textStep('Next steps:\n- Add a retry', true, false), textStep('Done:\n- Added a retry\n- Fixed the test', true, true)],
  },
};

export const TEXT_RULES: Rule<TextInput>[] = [doneList, doneLeadRule, openList, prose];
export const PROMPT_RULES: Rule<PromptInput>[] = [prompt];
