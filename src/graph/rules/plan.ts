// A plan as Claude Code's plan mode writes it (ExitPlanMode's `plan`, or the plan file): its
// title, the choices it settles (items and sentences under "Decisions", "Approach", "No-gos", "Out of scope" ...)
// its steps ("## Task 1: X", "### Step 2: Y", or the numbered list under "Steps"/"Tasks"), and the
// checks it leaves to a person (the manual items under "Verification"/"Testing").

import { clipWords, normaliseLabel } from '../labels.js';

export interface Plan {
  title: string;
  choices: string[];
  steps: string[];
  /** Checks a person makes ("Manual test: run the API in cloud mode ...", the items under "**Manual verification:**"). */
  manualChecks: string[];
}

/** A heading over the plan's checks: "## Verification", "### Testing", "## Test plan". */
const CHECK_HEADING = /^(?:verification|verify|testing|tests?|test plan|manual (?:verification|testing|tests?|checks?))\b/i;
/** A bold line that opens a group of items: "**Manual verification:**", "**Unit tests:**". */
const BOLD_GROUP = /^\s*\*\*([^*]+?):?\*\*:?\s*$/;
const MANUAL = /^manual(?:ly)?\b/i;

const CHOICE_HEADING = /^(?:decisions?|design decisions?|key decisions?|approach|solution|no-?gos?|non-?goals?|out of scope|constraints?|rabbit holes?|trade-?offs?|choices?)\b/i;
const STEP_HEADING = /^(?:steps?|tasks?|implementation(?: steps| plan)?|phases?|plan)$/i;

export function parsePlan(text: string): Plan {
  const lines = text.replace(/```[\s\S]*?```/g, '').split('\n');
  const title = normaliseLabel((/^#\s+(?:Plan:\s*)?(.+)$/m.exec(text)?.[1] ?? '').replace(/[*`]/g, ''));
  const choices: string[] = [];
  const steps: string[] = [];
  const manualChecks: string[] = [];
  let section: 'choice' | 'step' | undefined;
  let depth = 0;
  // Inside a checks section (its heading's depth), and whether its current group is manual.
  let checks = 0;
  let manual = false;
  for (const line of lines) {
    const heading = /^(#{1,4})\s+(.+?)\s*:?\s*$/.exec(line);
    if (heading) {
      const name = heading[2].replace(/[*`]/g, '').trim();
      if (CHECK_HEADING.test(name)) [checks, manual] = [heading[1].length, MANUAL.test(name)];
      else if (heading[1].length <= checks) [checks, manual] = [0, false];
      const step = /^(?:task|step|phase)\s+\d+[a-z]?\s*[:.—–-]\s*(.+)$/i.exec(name);
      if (step) {
        steps.push(normaliseLabel(clipWords(step[1], 12)));
        section = undefined;
      } else if (CHOICE_HEADING.test(name)) [section, depth] = ['choice', heading[1].length];
      else if (STEP_HEADING.test(name)) [section, depth] = ['step', heading[1].length];
      else if (heading[1].length <= depth) section = undefined;
      continue;
    }
    const group = BOLD_GROUP.exec(line);
    if (group && checks > 0) manual = MANUAL.test(group[1].trim());
    const item = /^(\s*)(?:[-*]|\d+[.)])\s+(.+)$/.exec(line);
    if (item && checks > 0 && (manual || MANUAL.test(item[2].replace(/\*\*/g, '')))) {
      const check = item[2].replace(/\*\*|`/g, '');
      manualChecks.push(normaliseLabel(clipWords(MANUAL.test(check) ? check : `Manual verification: ${check}`, 16)));
    }
    // "## Solution\nInstall via igniter, and add a unified `mix quality` alias.": a sentence of a
    // choice section is a choice as its list items are.
    if (!item && section === 'choice' && /^[A-Z`*]/.test(line.trim()) && !/:\s*$/.test(line)) {
      for (const sentence of line.trim().split(/(?<=[a-z0-9)`'"])\.\s+(?=[A-Z`*])/)) {
        const label = normaliseLabel(clipWords(sentence.replace(/\*\*|`/g, ''), 16));
        if (label.split(/\s+/).length >= 4) choices.push(label);
      }
      continue;
    }
    if (!item || item[1].length > 1 || !section) continue;
    const label = normaliseLabel(clipWords(item[2].replace(/\*\*|`/g, ''), 14));
    if (label.split(/\s+/).length < 2) continue;
    (section === 'choice' ? choices : steps).push(label);
  }
  return { title, choices: [...new Set(choices)], steps: [...new Set(steps)], manualChecks: [...new Set(manualChecks)] };
}

/** A file the plan mode writes: under a `plans/` folder, or named plan.md. */
export function isPlanFile(path: string): boolean {
  return /(?:^|\/)plans\/[^/]+\.md$|(?:^|\/)plan\.md$/i.test(path);
}
