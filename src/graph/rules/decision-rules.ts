// Decision rules grounded in what the log shows was settled (issue #17, items 1-2): the plan the
// user approved and handed over as "Implement the following plan:", and the reply's sentences that
// give a choice with its reason ("Since X, I'll Y", "I need to Y - X", "I'll Y because X").
// Labels name what was chosen and why, in at most a dozen words, without the lead-in.

import { clipWords, normaliseLabel, sentences } from '../labels.js';
import { promptStep, textStep, toolStep, type PromptInput, type Rule, type TextInput, type ToolInput } from './engine.js';
import { parsePlan } from './plan.js';
import type { ExtractState } from '../extract-state.js';

/** How many words a choice and its reason keep. */
const CHOICE_WORDS = 10;
const REASON_WORDS = 8;
/** A reply's reasoned choice is a detail beside the choices the user made or the plan states (below EXPLICIT in resume-items.ts). */
const REASONED = 0.7;
/** A choice stated after its reason is the sentence's main clause: it keeps more words. */
const FIRST_WORDS = 14;

/** Verbs of looking around, checking or reporting: what follows them is a step, not a choice. */
const NOT_A_CHOICE_VERB =
  /^(?:(?:also\s+)?(?:update|fix|simplify|refactor|rewrite|rename)\s|read|re-?read|check|look|see|find|search|explore|examine|investigate|understand|verify|confirm|run|re-?run|start|try|review|get|fetch|inspect|test|debug|trace|dig|analy[sz]e|figure|know|ask|wait|think|consider|summari[sz]e|explain|show you|report|tell|let you|continue|proceed|begin|go ahead|take|do|fix|update the todo|mark|create a todo|now)\b/i;

/** "since you suggested", "as specified in the task": doing what was asked, not a choice of how. */
const DEFERS = /^(?:you\b|the user (?:asked|requested|wants|wanted|said|mentioned|suggested)\b|(?:it was |it's |as )?(?:specified|requested|asked|mentioned|suggested|instructed)\b)/i;
/** A hedge or a question is not a choice. */
const HEDGE = /\?\s*$|\b(?:maybe|perhaps|might|could|probably|not sure|if you(?:'d)? (?:like|want|prefer))\b/i;

/** "Since the user is rewinding explicitly, I'll pass true for force": the reason before the choice. */
const REASON_FIRST =
  /^(?:(?:so|ok(?:ay)?|now|here|also),?\s+)?(?:(?:for|in|on)\s+[^,]{3,50},\s+)?(?:since|because|as|given that|now that)\s+(.{6,160}?),\s+(?:i'll|i will|i'm going to|we'll|we will|we're going to|i need to|we need to|i should|we should|let's|let me)\s+(.+?)[.!]?$/i;

/** "`setPrompts` is still used elsewhere, so I'll leave it": the reason, then the choice it settles. */
const SO_CHOICE =
  /^(.{6,160}?),?\s+so\s+(?:i'll|i will|i'm going to|we'll|we will|let's|i|we)\s+((?:leave|keep|skip|use|remove|drop|ignore|avoid|stick with|go with|switch to|move|put|store|treat|pass|wrap|not|won't|don't)\b.*?)[.!]?$/i;

/** "I need to add the files to .gitignore - these are generated files", "I'll keep X because Y", "I need to add X following the same pattern": the choice, then its reason. */
const REASON_AFTER =
  /^(?:(?:so|ok(?:ay)?|now|here|also),?\s+)?(?:i'll|i will|i'm going to|we'll|we will|we're going to|i need to|we need to|i should|we should|let's)\s+(.+?)(\s+[-—–]\s+|,?\s+(?:because|since|as|so that|so|following|matching|consistent with|in line with)\s+)(.{6,200}?)[.!]?$|^(?:(?:now|also),?\s+)?let me(?: also)?\s+(.+?)(,?\s+(?:because|since)\s+)(.{6,200}?)[.!]?$/i;

/** "I need to delete the Python source files (not the plugin scripts)": the choice and the alternative set aside. */
const NOT_THAT =
  /^(?:(?:so|ok(?:ay)?|now|here|also),?\s+)?(?:i'll|i will|i'm going to|we'll|we will|i need to|we need to|i should|we should|let's|let me(?: also)?)\s+(.+?)\s*\((?:not|but not|rather than|instead of)\s+([^()]{3,60})\)\s*(.*?)[.!]?$/i;

function clean(text: string): string {
  return text
    .replace(/\*\*|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A choice with its reason, as a label: "pass true for force since the user is rewinding explicitly". */
function reasonLabel(choice: string, reason: string, words = CHOICE_WORDS, connector = 'since'): string | undefined {
  const what = clean(choice);
  const why = clean(reason).replace(/^(?:the|it's|it is|this is|these are|that's)\s+/i, (m) => (/^the\s/i.test(m) ? m : ''));
  if (NOT_A_CHOICE_VERB.test(what) || HEDGE.test(what) || HEDGE.test(why) || DEFERS.test(why)) return undefined;
  if (what.split(/\s+/).length < 2 || why.split(/\s+/).length < 2) return undefined;
  return normaliseLabel(`${clipWords(what, words)} ${connector} ${clipWords(why, REASON_WORDS)}`);
}

/** The word that joins a choice to its reason, as the sentence said it ("because", "following"); a dash reads "since". */
function link(joint: string): string {
  const word = joint.replace(/^[\s,]+|\s+$/g, '').toLowerCase();
  return /^[-—–]$/.test(word) || word === 'as' ? 'since' : word;
}

/** "setPrompts is still used elsewhere, so leave it": said in the sentence's own order, the reason naming what "it" is. */
function soLabel(reason: string, choice: string): string | undefined {
  const why = clean(reason).replace(/^(?:(?:so|ok(?:ay)?|now|and|but|also),?\s+)+/i, '');
  const what = clean(choice);
  if (HEDGE.test(why) || HEDGE.test(what) || why.split(/\s+/).length < 3 || why.split(/\s+/).length > 16) return undefined;
  return normaliseLabel(`${why}, so ${clipWords(what, CHOICE_WORDS)}`);
}

/** The reasoned choices of a reply, one label per sentence. */
export function reasonedChoices(text: string): string[] {
  const out: string[] = [];
  for (const sentence of sentences(text)) {
    const s = sentence.trim();
    if (s.length > 400 || /\?\s*$/.test(s)) continue;
    const first = REASON_FIRST.exec(s);
    const not = NOT_THAT.exec(s);
    if (not && !NOT_A_CHOICE_VERB.test(clean(not[1])) && !HEDGE.test(s)) {
      const label = normaliseLabel(`${clipWords(clean(`${not[1]} ${not[3]}`), CHOICE_WORDS)}, not ${clipWords(clean(not[2]), 6)}`);
      if (!out.includes(label)) out.push(label);
      continue;
    }
    const so = first ? undefined : SO_CHOICE.exec(s);
    const after = first || so ? undefined : REASON_AFTER.exec(s);
    const label = first
      ? reasonLabel(first[2], first[1], FIRST_WORDS)
      : so
        ? soLabel(so[1], so[2])
        : after
          ? reasonLabel(after[1] ?? after[4], after[3] ?? after[6], CHOICE_WORDS, link(after[2] ?? after[5]))
          : undefined;
    if (label && !out.includes(label)) out.push(label);
  }
  return out;
}

const reasonedChoice: Rule<TextInput> = {
  id: 'decision.reasoned-choice',
  on: 'text',
  matches: 'a sentence of a reply that commits to a course with its reason: "Since X, I\'ll Y", "I need to Y - X", "I\'ll Y because X" (not looking around or checking, not a hedge or a question)',
  makes: 'a DECISION "<Y> since <X>" (the choice in up to 10 words, the reason in up to 8)',
  why: 'real sessions give their choices with the reason in one sentence; the reason is what a resumed session must not undo',
  toolSessionsOnly: true,
  match: ({ step }) => step.role === 'assistant' && reasonedChoices(step.text).length > 0,
  make: ({ step }, state) => {
    for (const label of reasonedChoices(step.text)) decide(state, label, step.uuid, REASONED);
  },
  examples: {
    yes: [
      textStep("I need to add the untracked files to `.gitignore` - these are generated files that shouldn't be tracked.", false),
      textStep("`setPrompts` is still used elsewhere, so I'll leave it.", false),
      textStep('I need to delete the Python source files (not the plugin scripts).', false),
      textStep('Let me also clean up the Python config files (pyproject.toml and uv.lock) since this is now a Rust project.', false),
      textStep('I need to add a `testAgent` constant in `logger_test.go` following the same pattern.', false),
      textStep("For the rewind command, since the user is explicitly rewinding and there are already confirmation prompts, I'll pass `true` for force to skip the additional timestamp check.", false),
    ],
    no: [
      textStep('I need to check the file because it might have changed.', false),
      textStep('Since the tests pass, let me look at the lint output.', false),
      textStep("The tests pass, so I'll commit now.", false),
      textStep('Let me read the config (not the tests).', false),
      textStep('Let me rebuild the CSS so the changes take effect.', false),
      textStep("I'll note this and move on since you suggested.", false),
      textStep("Since the hook won't let me commit, I have two options:", false),
      textStep('Should I add it to .gitignore since it is generated?', false),
    ],
  },
};

/** "Implement the following plan:\n\n# Title ...": the plan the user approved in plan mode, handed to a fresh context. */
export const PLAN_PROMPT = /^\s*implement the following plan:?\s*\n/i;

/** "- **Fail-safe**: If cloc is unavailable ..., evaluation proceeds.": a plan's bold-named property of its design. */
const BOLD_CHOICE = /^\s*[-*]\s+\*\*([^*]{3,30}?)(?::\*\*|\*\*:)\s+(.{8,})$/;
/** Bold names that head a location or a step rather than a property of the design. */
const NOT_A_PROPERTY =
  /^(?:files?|path|location|where|test(?:s|ing)?|verification|step|note|example|before|after|current|problem|context|issue|result|output|input|usage|command|create[ds]?|update[ds]?|new|modif(?:y|ied)|delete[ds]?|remove[ds]?|add(?:ed)?|change[ds]?|lines?)s?\b/i;
/** A plan's line that names where an edit goes ("File: src/x.ts (line 73)", "Create: a.js — ..."), not a choice. */
const WHERE_LINE = /^(?:files?|path|location|create[ds]?|update[ds]?|new|modif(?:y|ied)|delete[ds]?)\s*:/i;

/** "- Use `border-b` between rows instead of a full border per row", "- Instead, wrap the rows in one container": a step that names the road not taken. */
const INSTEAD_ITEM = /^\s*(?:[-*]|\d+[.)])\s+(.{8,})$/;
/** "Change Init() to use X instead of Y", "Update the examples to use X instead of Y": an edit the plan lists, its choice stated elsewhere. */
const EDIT_STEP = /^(?:change|update|edit|modify|fix|rename|replace|adjust|rewrite|add|remove|delete|set)\b/i;
const NAMES_ALTERNATIVE = /^instead,?\s|\s(?:instead of|rather than)\s/i;

/** The choices of a plan: those under its choice headings, and what planChoiceExtras finds. */
export function planChoices(text: string): string[] {
  const out = parsePlan(text).choices.filter((c) => !WHERE_LINE.test(c));
  for (const label of planChoiceExtras(text)) if (!out.includes(label)) out.push(label);
  return out;
}

/** The choices a plan states outside its choice headings: the first sentence under "## Change", bold-named design properties, steps that name what they replace. */
export function planChoiceExtras(text: string): string[] {
  const out: string[] = [];
  const prose = text.replace(/```[\s\S]*?```/g, '');
  // "## Change\n\nWrite all logs to a single fixed file: X\n\nThe session_id attribute ...": the
  // change the plan settles is its first sentence; what follows explains it.
  // Its first line that is not where the edit goes ("**File:** README.md") nor a lead into code ("... from:").
  const section = /^#{1,4}\s+(?:the\s+)?(?:proposed\s+)?change\s*:?\s*\n([\s\S]*?)(?=^#{1,4}\s|$(?![\s\S]))/im.exec(prose)?.[1] ?? '';
  const line = section
    .split('\n')
    .map((l) => clean(l))
    .find((l) => l.length > 8 && !WHERE_LINE.test(l) && !/:\s*$/.test(l) && !/^[-*|>]/.test(l));
  if (line) {
    const first = line.split(/(?<=[a-z0-9)'"])\.\s+(?=[A-Z])/)[0];
    const label = normaliseLabel(clipWords(first.replace(/[.]$/, ''), 14));
    if (label.split(/\s+/).length >= 3 && !out.includes(label)) out.push(label);
  }
  for (const line of prose.split('\n')) {
    const m = BOLD_CHOICE.exec(line);
    // "**Error propagation**: Job manager already extracts error.code": what the code does already is no choice.
    if (!m || NOT_A_PROPERTY.test(m[1].trim()) || /[/.]\w+$/.test(m[1].trim()) || /\balready\b/i.test(m[2])) continue;
    const body = clean(m[2]).split(/(?<=[a-z0-9)'"])\.\s+(?=[A-Z])/)[0];
    const label = normaliseLabel(`${m[1].trim()}: ${clipWords(body.replace(/[.]$/, ''), 12)}`);
    if (label.split(/\s+/).length >= 3 && !out.includes(label)) out.push(label);
  }
  for (const line of prose.split('\n')) {
    const m = INSTEAD_ITEM.exec(line);
    if (!m || !NAMES_ALTERNATIVE.test(clean(m[1])) || HEDGE.test(m[1]) || EDIT_STEP.test(clean(m[1]))) continue;
    const body = clean(m[1]).split(/(?<=[a-z0-9)'"])\.\s+(?=[A-Z])/)[0];
    const label = normaliseLabel(clipWords(body.replace(/[.;]$/, ''), 14));
    if (label.split(/\s+/).length >= 4 && !out.includes(label)) out.push(label);
  }
  return out;
}

const planPrompt: Rule<PromptInput> = {
  id: 'decision.plan-prompt',
  on: 'prompt',
  client: 'after the user approves a plan and clears the context, Claude Code opens the new context with a prompt "Implement the following plan:" holding the plan (seen in 2.1.37 and 2.1.5x logs)',
  matches: 'a prompt "Implement the following plan:" followed by the plan',
  makes:
    'a DECISION per choice of the plan: the items and sentences under its choice headings ("Decisions", "Approach", ...), the first sentence under "## Change", its bold-named properties ("**Fail-safe**: ...") and its steps that name what they replace ("Use X instead of Y")',
  why: 'the plan the user approved settles how the work is done; its stated choices are decisions the resumed session must keep',
  match: ({ prompt }) => PLAN_PROMPT.test(prompt.text) && planChoices(prompt.text).length > 0,
  make: ({ prompt }, state) => {
    for (const label of planChoices(prompt.text)) decide(state, label, prompt.uuid, 0.85);
  },
  examples: {
    yes: [
      promptStep('Implement the following plan:\n\n# Consolidate logging\n\n## Change\n\nWrite all logs to a single fixed file: `.entire/logs/entire.log`\n', true),
      promptStep(
        'Implement the following plan:\n\n# Plan: Block large repos\n\n## Changes\n\n### 3. Add LOC guard\n\n- **Fail-safe**: If cloc is unavailable or output is malformed, evaluation proceeds.\n- **Files**: engine.ts\n',
        true,
      ),
      promptStep('Implement the following plan:\n\n# Fix layout\n\n## Changes\n\n- Use `border-b` between rows (except last) instead of full border per row\n', true),
    ],
    no: [
      promptStep('Implement the following plan:\n\n# Plan: Block large repos\n\n## Steps\n\n1. Add the guard\n2. Add the message\n', true),
      promptStep('Write all logs to a single fixed file', true),
      promptStep('Implement the following plan:\n\n# Plan\n\n## Changes\n\n- **Error propagation**: Job manager already extracts `error.code`.\n', true),
      promptStep('Implement the following plan:\n\n# Logging\n\n## Steps\n\n- Update jq examples to use `entire.log` instead of `*.log`\n', true),
    ],
  },
};

const REJECTED = /user doesn't want to proceed|tool use was rejected/i;

const approvedPlanExtras: Rule<ToolInput> = {
  id: 'decision.plan-extras',
  on: 'tool',
  client: 'ExitPlanMode carries the plan in its input up to 2.1.x; later clients name the plan file (read by plan.written)',
  matches: 'ExitPlanMode the user approved, whose plan states choices outside its choice headings',
  makes: 'a DECISION per such choice: the first sentence under "## Change", bold-named properties ("**Fail-safe**: ..."), steps that name what they replace ("Use X instead of Y")',
  why: 'plan.approved reads the choice headings; a plan also settles choices inside its steps, and those the user approved too',
  match: ({ step }) => step.name === 'ExitPlanMode' && step.answered && !step.isError && !REJECTED.test(step.result),
  make: ({ step }, state) => {
    const text = typeof step.input.plan === 'string' ? step.input.plan : (state.planText ?? '');
    for (const label of planChoiceExtras(text)) decide(state, label, step.uuid, 0.85);
  },
  examples: {
    yes: [toolStep('ExitPlanMode', { plan: '# Plan: Fix layout\n\n## Steps\n\n- Instead, wrap each section in a single bordered container\n' }, 'User has approved your plan.')],
    no: [
      toolStep('ExitPlanMode', { plan: '# Plan: Fix layout\n\n## Steps\n\n- Wrap each section in a container\n' }, 'User has approved your plan.'),
      toolStep('ExitPlanMode', { plan: '# Plan\n\n- Instead, wrap each section in a single bordered container\n' }, 'The tool use was rejected', { isError: true }),
    ],
  },
};

/** "The `space-y-1` gap between the header and the table is fine — it provides a small gap": a thing left as it is, with why. */
const FINE_AS_IS =
  /^(?:(?:so|ok(?:ay)?|now|and|but|also),?\s+)?(?:the\s+)?(.{3,80}?)\s+(?:is|are)\s+(?:fine|ok|okay|acceptable)(?:\s+as(?:\s+it)?\s+is)?(?:\s+here)?\s*(?:[—–-]|:|,?\s+(?:because|since|as))\s+(.{6,200}?)[.!]?$/i;

/** "Added `retry: 1` which will retry notarization once on failure": a setting and what it does. */
const SETTING_SENTENCE =
  /^(?:done[.!]\s+)?(?:(?:i've|i have|i)\s+)?(?:added|set|changed|raised|lowered|bumped|increased|decreased|updated)\s+`([\w.-]+\s*[:=]\s*[^`]{1,30})`(?:\s+to\s+`[^`]{1,30}`)?,?\s+(?:which|so that|so|to|giving)\s+(.{6,200}?)[.!]?$/i;

/** Labels of a reply's sentences that keep a thing as it is, or set a value, with the reason. */
export function keptOrSet(text: string): string[] {
  const out: string[] = [];
  for (const sentence of sentences(text)) {
    const s = sentence.trim();
    if (s.length > 400 || /\?\s*$/.test(s)) continue;
    const fine = FINE_AS_IS.exec(s);
    const subject = fine && clean(fine[1]);
    let label: string | undefined;
    if (fine && subject && !/^(?:it|this|that|everything|all|all tests|the (?:build|tests?|code|change|fix|result|output))$/i.test(subject) && subject.split(/\s+/).length >= 2 && !HEDGE.test(s))
      label = normaliseLabel(`Keep ${clipWords(subject, 10)}: ${clipWords(clean(fine[2]).replace(/^it\s+/i, ''), REASON_WORDS)}`);
    const set = SETTING_SENTENCE.exec(s);
    if (!label && set) label = normaliseLabel(`${set[1].trim()} ${clipWords(clean(set[2]).replace(/^(?:will|which)\s+/i, ''), 16)}`);
    if (label && !out.includes(label)) out.push(label);
  }
  return out;
}

const keptOrSetRule: Rule<TextInput> = {
  id: 'decision.kept-or-set',
  on: 'text',
  matches:
    'a reply\'s sentence that leaves a thing as it is with the reason ("X is fine — it provides Y"), or sets a value in code with what it does ("Added `retry: 1` which retries once on failure")',
  makes: 'a DECISION "Keep X: <why>" or "<key: value> <what it does>"',
  why: 'leaving a thing unchanged on purpose, and a value chosen for what it does, are choices a resumed session must not undo',
  toolSessionsOnly: true,
  match: ({ step }) => step.role === 'assistant' && keptOrSet(step.text).length > 0,
  make: ({ step }, state) => {
    for (const label of keptOrSet(step.text)) decide(state, label, step.uuid, 0.8);
  },
  examples: {
    yes: [
      textStep('The `space-y-1` gap between the section header and the table is fine — it provides a small gap between the header bar and the table.', false),
      textStep('Done. Added `retry: 1` which will retry notarization once on failure, giving you 2 total attempts before the release fails.', false),
    ],
    no: [textStep('The build is fine now.', false), textStep('Everything is fine - all tests pass.', false), textStep('Added `retry: 1`.', false)],
  },
};

/** The modified files the last `git status` listed, per extraction, and how many more it did not name. */
const lastStatus = new WeakMap<ExtractState, { paths: string[]; more: number }>();

/** Modified files of a `git status`: git's own ("modified:   a.ts") or a wrapper's list ("📝 Modified: 2 files\n   a.ts\n   ... +6 more"). */
export function statusModified(output: string): { paths: string[]; more: number } {
  const paths = [...output.matchAll(/^\s*(?:modified|deleted):\s+(\S+)\s*$/gm)].map((m) => m[1]);
  let more = 0;
  const listed = /Modified:\s*\d+\s+files?\s*\n((?:[ \t]+\S.*\n?)+)/.exec(output);
  if (listed)
    for (const line of listed[1].split('\n').map((l) => l.trim())) {
      const rest = /^\.\.\.\s*\+(\d+)\s+more$/.exec(line);
      if (rest) more = Number(rest[1]);
      else if (line && !/\s/.test(line)) paths.push(line);
    }
  return { paths: [...new Set(paths)], more };
}

/** The paths a `git add` names, or undefined for one that stages everything (`-A`, `.`, `-u`). */
function addedPaths(cmd: string): string[] | undefined {
  const m = /\bgit\s+add\s+([^&|;\n]+)/.exec(cmd);
  if (!m) return undefined;
  const args = m[1].trim().split(/\s+/);
  if (args.some((a) => /^(?:-A|--all|-u|--update|\.|\*|:\/)$/.test(a))) return undefined;
  const paths = args.filter((a) => !a.startsWith('-'));
  return paths.length > 0 ? paths : undefined;
}

const baseOf = (path: string) => path.replace(/\/+$/, '').split('/').pop() ?? path;

/** "Commit only EmptyState.tsx, not unrelated changes (constants.ts)": a commit that leaves out modified files the session never touched. */
export function partialCommit(cmd: string, status: { paths: string[]; more: number } | undefined, changedHere: (path: string) => boolean): string | undefined {
  if (!status || !/\bgit\s+commit\b/.test(cmd)) return undefined;
  const added = addedPaths(cmd);
  if (!added) return undefined;
  const same = (a: string, b: string) => a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
  const others = status.paths.filter((p) => !added.some((a) => same(a, p)));
  const unrelated = others.filter((p) => !changedHere(p));
  if (unrelated.length === 0) return undefined;
  const what = added.length === 1 ? baseOf(added[0]) : `the ${added.length} files changed here`;
  const shown = unrelated.slice(0, 2).map(baseOf).join(', ');
  const rest = unrelated.length + status.more > 2 ? ', ...' : '';
  return `Commit only ${what}, not unrelated changes (${shown}${rest})`;
}

const commitScope: Rule<ToolInput> = {
  id: 'decision.commit-scope',
  on: 'tool',
  matches: 'a `git add <paths> ... git commit` whose paths leave out modified files the last `git status` listed and the session never changed',
  makes: 'a DECISION "Commit only <file or the N files changed here>, not unrelated changes (<files left out>)"',
  why: "a commit that stages only the session's own files chose what goes into it; the resumed session must not sweep the others in",
  match: ({ step }) => (step.name === 'Bash' || step.name === 'PowerShell') && !step.isError,
  make: ({ step }, state) => {
    const cmd = typeof step.input.command === 'string' ? step.input.command : '';
    if (/\bgit\s+status\b/.test(cmd)) {
      const status = statusModified(step.result);
      if (status.paths.length > 0) lastStatus.set(state, status);
    }
    const changedHere = (path: string) =>
      state.builder.find('FILE', (n) => n.status === 'modified' && (n.label === path || n.label.endsWith(`/${path}`) || path.endsWith(`/${n.label}`))) !== undefined;
    const status = lastStatus.get(state);
    const label = partialCommit(cmd, status, changedHere);
    if (label) decide(state, label, step.uuid, 0.85);
    // What a commit took is no longer modified: a later commit is judged against what is left.
    const added = /\bgit\s+commit\b/.test(cmd) ? addedPaths(cmd) : undefined;
    if (status && /\bgit\s+commit\b/.test(cmd))
      lastStatus.set(state, added ? { paths: status.paths.filter((p) => !added.some((a) => a === p || p.endsWith(`/${a}`) || a.endsWith(`/${p}`))), more: status.more } : { paths: [], more: 0 });
  },
  examples: {
    yes: [toolStep('Bash', { command: 'git status && git add src/a.ts && git commit -m "x"' }, 'Changes not staged for commit:\n\tmodified:   src/a.ts\n\tmodified:   src/b.ts\n[main 1a2b3c] x')],
    no: [
      toolStep('Bash', { command: 'git status && git add -A && git commit -m "x"' }, '\tmodified:   src/a.ts\n\tmodified:   src/b.ts\n[main 1a2b3c] x'),
      toolStep('Bash', { command: 'git status' }, '\tmodified:   a.ts\n\tmodified:   b.ts'),
    ],
  },
};

function decide(state: ExtractState, label: string, uuid: string, confidence: number): void {
  state.builder.mention('DECISION', label, { confidence, turn: state.turn, uuid });
}

/** Prompt rules of the decision set, in the order the engine runs them (none is final). */
export const DECISION_PROMPT_RULES: Rule<PromptInput>[] = [planPrompt];
/** Text rules of the decision set (none is final). */
export const DECISION_TEXT_RULES: Rule<TextInput>[] = [reasonedChoice, keptOrSetRule];
/** Tool rules of the decision set (none is final; they run before the older tool rules). */
export const DECISION_TOOL_RULES: Rule<ToolInput>[] = [approvedPlanExtras, commitScope];
