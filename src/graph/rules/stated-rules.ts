// Rules on single sentences that state a choice or a problem, for sessions whose tools did the
// work: there the prose rules' bare names ("PostHog") say little, while one sentence of the reply
// ("The lightest-weight approach is Go's built-in runtime/trace, enabled via an environment
// variable") or of the user ("keep each commit with working code") says what was settled.

import { normaliseLabel, sentences } from '../labels.js';
import { promptStep, summaryStep, textStep, type PromptInput, type Rule, type SummaryInput, type TextInput } from './engine.js';
import type { ExtractState } from '../extract-state.js';

const WORDS = 16;

/** A sentence as a label: no markup, no lead-in ("I'll", "Let me", "So,"), at most WORDS words. */
export function statedLabel(sentence: string): string {
  // Markdown emphasis ("when we _know_ that", "*all* of them") goes; snake_case names stay.
  let text = sentence
    .replace(/\*\*|`/g, '')
    .replace(/(^|[\s("'])[_*]([^_*\s][^_*]*?)[_*](?=[\s).,;:!?'"]|$)/g, '$1$2')
    .replace(/^\s*(?:[-*•]|\d+[.)]|[A-H]\))\s+/, '')
    .trim();
  text = text.replace(/^(?:so|ok(?:ay)?|yes|great|good|right|also|then|now|but|and|actually|alright)[,!.]?\s+/i, '');
  // "Since no custom commands are available, I'll decompose ...": the reason clause goes, the choice stays.
  text = text.replace(/^(?:since|because|as|given that|now that)\s+[^,]{3,80},\s+(?=(?:I'll|I will|I'm going to|we'll|we will|let me|let's|I need to|we need to)\b)/i, '');
  text = text.replace(/^(?:I'll|I will|I'm going to|we'll|we will|let me|let's|I think|I'd)\s+/i, '');
  return normaliseLabel(closeClipped(text, WORDS).replace(/[:,;]$/, ''));
}

/** The first `words` words; a parenthesis the cut left open is closed, so the label keeps what it holds. */
export function closeClipped(text: string, words: number): string {
  let out = text
    .split(/\s+/)
    .slice(0, words)
    .join(' ')
    .replace(/[:,;]$/, '');
  // A cut that ends on a word needing more ("... subtasks and") ends before it: the label stays a phrase.
  if (text.split(/\s+/).length > words)
    out = out.replace(
      /(?:\s+(?:a|an|the|to|of|for|with|and|or|in|on|at|by|from|as|is|are|was|that|which|when|if|into|via|than|then|but|so|we|it|its|this|our|their|not|be|can|will|would))+[,;:]?$/i,
      '',
    );
  const open = (out.match(/\(/g) ?? []).length - (out.match(/\)/g) ?? []).length;
  if (open > 0) out = `${out.replace(/[\s,;:]+$/, '')}${')'.repeat(open)}`;
  return out;
}

/** A reply's sentence that settles how: a choice against an alternative, a recommendation, the approach. */
const CHOICE =
  /\b(?:(?:i'll|i will|we'll|let me|let's) (?:use|go with|keep|consolidate|decompose|first|switch|move|split|store|avoid|skip|add [\w-]+ support)|(?:i'd |i )?recommend(?:ed)?|best place|(?:cleanest|simplest|lightest(?:-weight)?|safest|best) (?:\w+ )?(?:approach|fix|way|option|place|solution)|the (?:approach|plan|decision) is to|decided|went with|go with|going with|chose|opted)\b/i;
/** "X instead of Y" settles how only when a verb of choosing comes before it ("use X instead of Y"), not when it tells what went wrong ("outputs X instead of Y"). */
const INSTEAD = /\b(?:instead of|rather than)\b/i;
/** Verbs that choose (what a sentence reports about the code's behaviour, "shows X instead of Y", "made a commit", is no choice). */
const CHOOSING_VERB =
  /\b(?:use[ds]?|using|switch(?:ed|ing)?|show|pass(?:ed|ing)?|keep|kept|prefer(?:red)?|cho(?:o)?se|chosen|go|went|move[ds]?|store|put|replace[ds]?|add(?:ed)?|write|wrote|treat(?:ed)?|rely|call|retried|retry)\b/i;
/** Not a choice: a question, a hedge, an offer, looking around first, or a report of what went wrong. */
const NOT_CHOICE =
  /\?\s*$|^(?:maybe|perhaps|if you|would you|do you|should i|shall i|want me|how about)\b|^(?:\*\*)?option \w+\s*\(recommended\)|\b(?:could|might) (?:also )?(?:use|go)\b|\bfirst (?:understand|read|look|check|explore|examine|investigate|see|review|find|search|get|trace)\b|\b(?:is failing|are failing|failing because|fails because|broken|user reported|the fix (?:is )?work(?:s|ing))\b/i;

/** A line reporting work done ("strategy/x.go - Fixed X to use Y instead of Z"): a task, not a choice. */
const DONE_REPORT =
  /^(?:[\w./-]+\.\w+\s*[-–—:]\s*)?(?:[✅✓]\s*)?(?:fixed|added|updated|created|removed|changed|moved|implemented|refactored|renamed|extracted|wrote|converted|ported|adjusted|restored|replaced)\b/i;

function isChoice(s: string): boolean {
  const plain = s.replace(/\*\*|`/g, '').trim();
  if (NOT_CHOICE.test(s.trim()) || DONE_REPORT.test(plain)) return false;
  if (CHOICE.test(s)) return true;
  const at = s.search(INSTEAD);
  return at > 0 && CHOOSING_VERB.test(s.slice(0, at));
}

function choiceSentences(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, ' ');
  return sentences(prose)
    .filter((s) => isChoice(s) && s.split(/\s+/).length >= 4 && s.length < 400)
    .map((s) => pickedOption(s, prose) ?? statedLabel(s))
    .filter((l) => l.split(/\s+/).length >= 3);
}

/**
 * "I'd recommend **Option A** - it's already how X works": the choice is what option A says, in
 * the list of options the same reply gives ("A) **Use persisted session file** - ...").
 */
function pickedOption(sentence: string, text: string): string | undefined {
  const m = /\b(?:recommend(?:ed)?|go with|going with|prefer|pick|choose)\s+(?:\*\*)?option\s+([A-H]|\d)\b/i.exec(sentence);
  if (!m) return undefined;
  // "1. ..." is any numbered list: a number names an option only after the word ("Option 1: ...").
  const word = /\d/.test(m[1]) ? 'option\\s+' : '(?:option\\s+)?';
  const line = new RegExp(`^\\s*(?:[-*#]+\\s+)?(?:\\*\\*)?${word}${m[1]}(?:[).:]|\\*\\*)+\\s*(?:\\*\\*)?(\\S.{5,})$`, 'im').exec(text);
  if (!line) return undefined;
  const first = line[1].split(/\.\s+(?=[A-Z])/)[0];
  return statedLabel(first);
}

function decide(state: ExtractState, label: string, uuid: string, confidence: number): void {
  state.builder.mention('DECISION', label, { confidence, turn: state.turn, uuid });
}

const replyChoice: Rule<TextInput> = {
  id: 'decision.stated-choice',
  on: 'text',
  matches: 'a sentence of a reply that settles how: "X instead of Y", "I recommend X", "the cleanest fix is X", "Let me first X", "I\'ll go with X" (not a question, a hedge or an offer)',
  makes: 'a DECISION labelled with the sentence (up to 16 words, lead-in dropped)',
  why: 'real sessions state their choices in one sentence, rarely as a bare name',
  toolSessionsOnly: true,
  match: ({ step }) => step.role === 'assistant' && choiceSentences(step.text).length > 0,
  make: ({ step }, state) => {
    for (const label of choiceSentences(step.text)) decide(state, label, step.uuid, 0.8);
  },
  examples: {
    yes: [
      textStep("The lightest-weight approach is to add Go's built-in runtime/trace support, enabled via an environment variable.", false),
      textStep('Let me first write tests to surface the bug, then fix it.', false),
      textStep('I need to use GitCommitWithShadowHooks instead of GitCommit to trigger the hooks.', false),
      textStep(
        "A) **Use persisted session file** - `paths.ReadCurrentSession()` already stores the session ID. Simplest approach.\n\nB) **Refactor the commit** to return the ID.\n\nI'd recommend **Option A** - it's already how the fallback works.",
        false,
      ),
    ],
    no: [
      textStep('Should I use SQLite instead of JSON files?'),
      textStep('Let me read the file.'),
      textStep('The test is failing because RestoreLogsOnly outputs "Writing transcript to:" instead of "Session restored to:".'),
      textStep('Let me first understand how the CLI is structured to recommend the lightest-weight approach.'),
      textStep('strategy/manual_commit_git.go - Fixed SaveChanges to use resolveAgentType() instead of DefaultAgentType'),
      textStep('**Option A (Recommended):** Add WriteCommittedBatch() that writes all sessions in one commit instead of one each'),
      textStep('The plan is clear and well-structured.'),
      textStep('The fix is to set a timeout in the config.'),
    ],
  },
};

/** A user's sentence that settles how the work is done. */
const DIRECTIVE =
  /^(?:(?:ok|okay|yes|great|good|and|also|but|so|please)[,!.]?\s+)*(?:let's not|don't|do not|no need|never|always|keep|use|only|simply|just|make sure|we should(?:n't)?|i want (?:it|this|to)|assume|put (?:it|them)|focus on|go straight|[A-H]\)\s+\S)/i;

/** Directive words that settle an approach wherever they stand in the sentence. */
const DIRECTIVE_ANYWHERE = /\b(?:let's not|don't|do not|no need to|never|always|simply|we should(?:n't)?|assume|instead of|rather than)\b/i;

/** Not a directive: a request for an answer ("just tell me X", "explain how"), a reminder, or the user's own doubt or observation ("I don't see X", "it seems", "I think"). */
const NOT_DIRECTIVE =
  /^(?:(?:ok|okay|yes|and|also|but|so|please|just|lets|let's)[,!.]?\s+)*(?:tell me|give me|show me|explain|describe|don't forget|remember|i'm (?:quite |pretty )?sure|i think)\b|\b(?:tell me|give me an?|explain to me)\b|\bi (?:don'?t |do not |can'?t |cannot )?(?:think|see|know|understand|get why)\b|\b(?:it )?seems?\b/i;

function directives(text: string): string[] {
  return sentences(text)
    .filter((s) => (DIRECTIVE.test(s.trim()) || DIRECTIVE_ANYWHERE.test(s)) && !NOT_DIRECTIVE.test(s.trim()) && !/\?\s*$/.test(s) && s.split(/\s+/).length >= 4 && s.length < 300)
    .map(statedLabel)
    .filter((l) => l.split(/\s+/).length >= 3);
}

const userDirective: Rule<PromptInput> = {
  id: 'decision.user-directive',
  on: 'prompt',
  matches: 'a sentence of a later prompt that settles how the work is done: "let\'s not ...", "don\'t ...", "keep ...", "use ...", "only ...", "A) <option>" (not the opening prompt, not a question)',
  makes: 'a DECISION labelled with the sentence',
  why: 'user instructions that settle an approach are decisions the resumed session must keep',
  toolSessionsOnly: true,
  match: ({ prompt, first }) => !first && directives(prompt.text).length > 0,
  make: ({ prompt }, state) => {
    for (const label of directives(prompt.text)) decide(state, label, prompt.uuid, 0.85);
  },
  examples: {
    yes: [promptStep('keep each commit with working code please (no micro-committing broken state)'), promptStep('A) it is when we know that the user closed the chat session.')],
    no: [
      promptStep('keep going'),
      promptStep('Do you think we should use Redis?'),
      promptStep('Just tell me the directory name, do not run anything else.'),
      promptStep("Don't forget this is our auth code on the client."),
      promptStep("I don't see the entire commands in opencode"),
    ],
  },
};

/** Lines that retell the request or the conversation rather than record a choice. */
const NOT_SUMMARY_CHOICE = /^\s*(?:[-*]|\d+\.)\s+(?:\*\*[^*]+\*\*:?\s*)?(?:original request|(?:the )?conversation|initial|user asked|user's request|user requested|how about)\b/i;

/** Lines of a compaction summary that record a choice ("User wanted tests alongside source files"). */
const SUMMARY_CHOICE = /\b(?:user (?:wanted|wants|prefers|preferred|decided|chose|hates|asked for)|recommended|decided)\b/i;
/** Lines that say what went wrong or what is being looked into, not what was chosen. */
const SUMMARY_NOT_CHOICE =
  /\b(?:why|wrong|bug|reported|identified|proposed|investigat\w*)\b|\b(?:decided|wants?|wanted|chose) to (?:move on|continue|proceed|stop|go ahead)\s*\.?\s*$|^\s*(?:[-*]|\d+\.)\s+(?:\*\*)?(?:solved|ongoing|then|in progress)\s*:/i;

function summaryChoiceLine(line: string): boolean {
  if (SUMMARY_NOT_CHOICE.test(line)) return false;
  if (SUMMARY_CHOICE.test(line)) return true;
  const at = line.search(INSTEAD);
  return at > 0 && CHOOSING_VERB.test(line.slice(0, at));
}

const summaryChoice: Rule<SummaryInput> = {
  id: 'decision.summary-choice',
  on: 'summary',
  matches: 'a line of a compaction summary recording a choice: "User wanted X", "Recommended Option 1: ...", "X instead of Y"',
  makes: 'a DECISION labelled with the line',
  why: 'the summary keeps the choices made before the compaction',
  match: ({ text }) => summaryChoices(text).length > 0,
  make: ({ text, uuid }, state) => {
    for (const label of summaryChoices(text)) decide(state, label, uuid, 0.8);
  },
  examples: {
    yes: [summaryStep('This session is being continued from a previous conversation.\n- User wanted tests alongside source files, not in separate test/ directory')],
    no: [
      summaryStep('This session is being continued from a previous conversation.\n- Added a test for the parser'),
      summaryStep('This session is being continued from a previous conversation.\n- User reported 4 commits on entire/sessions instead of 2'),
      summaryStep('This session is being continued from a previous conversation.\n- User decided to move on'),
    ],
  },
};

function summaryChoices(text: string): string[] {
  if (!/^This session is being continued/.test(text)) return [];
  return text
    .split('\n')
    .filter((l) => /^\s*(?:[-*]|\d+\.)\s+/.test(l) && summaryChoiceLine(l) && !/^\s*[-*]\s*"/.test(l) && !NOT_SUMMARY_CHOICE.test(l))
    .map((l) => statedLabel(l.replace(/^\s*(?:[-*]|\d+\.)\s+(?:\*\*[^*]+\*\*:?\s*)?/, '')))
    .filter((l) => l.split(/\s+/).length >= 3);
}

/** A reply's sentence that names a problem found: the root cause, a failing test, a wrong default, code that does not do what it should. */
const PROBLEM =
  /\b(?:root cause|the (?:real |actual |main )?(?:issue|problem|bug|culprit) (?:is|was)|that's (?:likely |probably |the )?(?:the )?(?:issue|problem|bug|culprit)|(?:secondary|another|real|actual|main) (?:issue|problem|bug)|(?:is|are) (?:still )?failing|fails? because|failing because|is broken|doesn't check|does not check|rejects?|ignoring|ignores|only fixes|no longer supported|not supported|can only be|wait(?:s)? indefinitely|my (?:assumption|timeline) (?:is|was) wrong|haven't created|never (?:called|set|used)|(?:doesn't|does not|don't|do not|isn't|aren't|won't|can't|cannot) (?:\w+ )?(?:clean(?: up)?|work|handle|support|respect|trigger|compile|exist|match|persist|reach|recover|restore)|(?:is|are) (?:fully )?duplicated|(?:uses|takes) a different (?:code )?path|(?:was|is) (?:just )?(?:barely )?insufficient|incorrectly|must come first|wrong (?:argument|order|path|type|expectations?|assumption|default|branch)|(?:is|are|was|were) (?:still )?(?:hanging|stuck|timing out|undefined|missing)|(?:creates?|makes?) a separate|(?:i|we) (?:couldn't|could not|can't) (?:replicate|reproduce)|(?:there (?:are|is|were|was)|we have) (?:two|2|three|3) separate|(?:one|an?) uncovered|no \w+ (?:installers?|support|handlers?) exists?|\d+ (?:test )?failures?|\d+ tests? (?:fail|are failing))\b/i;
/** Not a problem: a plan to check, a hope, a condition, or a negated one ("nothing is broken"). */
const NOT_PROBLEM =
  /\?\s*$|^(?:let me|let's|i'll|i will|now|next|to |if |once |when |make sure)\b|\b(?:make sure|to ensure|to verify|nothing (?:is |else )?broken|no longer (?:fails|failing)|won't (?:happen|matter)|(?:check|see|find out|investigate|understand|look at) (?:why|whether|if|how))\b/i;

/**
 * "All clean — 1324 tests pass, 0 failures, lint passes with no errors", "All 3 tests fail as
 * expected, confirming the bugs": a check that came out as it should (a failing test written first
 * to show a bug fails as expected) reports no new problem, unless a "but" brings one.
 */
const SUCCESS_REPORT = /\b(?:all clean|0 (?:failures|errors)|no (?:errors|failures)|(?:fails?|failed|failing) as expected)\b/i;
function successReport(sentence: string): boolean {
  return SUCCESS_REPORT.test(sentence) && !/\bbut\b/i.test(sentence);
}

/** A problem sentence as a label: no lead-in ("The issue is that", "There's also a secondary issue:"), no line numbers. */
function problemLabel(sentence: string, words: number): string {
  let text = statedLabel(sentence);
  text = text.replace(/\s*\((?:lines?|L)\s*\d+(?:\s*[-–]\s*\d+)?\)/gi, '');
  text = text.replace(
    /^(?:i see,?\s*)?(?:there's also |there is also )?(?:the |a |an )?(?:real |actual |main |secondary |other )?(?:issue|problem|bug|culprit|root cause)(?: here)?(?: is| was)?(?: that)?[:,]?\s+(?=\S)/i,
    '',
  );
  return normaliseLabel(closeClipped(text, words).replace(/[,:;(\-–—]+$/, ''));
}

function problemSentences(text: string, words = 18): string[] {
  return (
    sentences(text.replace(/```[\s\S]*?```/g, ' '))
      .filter((s) => PROBLEM.test(s) && !NOT_PROBLEM.test(s.trim()) && !NOT_PROBLEM.test(statedLabel(s)) && !successReport(s) && s.split(/\s+/).length >= 4 && s.length < 400)
      .map((s) => ({ s, label: problemLabel(s, words) }))
      // "the first connection": a noun phrase left of a sentence names no problem; three words besides an article do.
      .filter(({ label }) => label.replace(/^(?:the|a|an)\s+/i, '').split(/\s+/).length >= 3 && !FRAGMENT.test(label))
      .map(({ label }) => label)
  );
}

/**
 * A piece of a sentence, not a statement of a problem: it opens with a preposition, a conjunction
 * or a closing bracket ("with the decryption logic", "in x.go - both A and B use", "new) - ..."),
 * or its subject is a bare pronoun ("It doesn't check AgentType though": what does not?).
 */
const FRAGMENT = /^(?:(?:with|in|on|at|for|from|by|into|and|but|or|so|which|when|while|then|it|they|this|that)\s|\S*\)\s)/i;

const replyProblem: Rule<TextInput> = {
  id: 'error.stated-problem',
  on: 'text',
  matches:
    'a sentence of a reply naming a problem found: "the root cause is X", "X is failing because Y", "X rejects Y", "X ignores Y", "that\'s likely the issue", "X doesn\'t clean up Y", "three functions are fully duplicated", "I couldn\'t reproduce X" (not a question, a plan to check, "nothing is broken", or a piece of a sentence: opening with a preposition, a conjunction or a bare pronoun)',
  makes: 'an ERROR labelled with the sentence (up to 18 words, lead-in such as "The issue is that" and line numbers dropped), settled (met, not left open)',
  why: 'the problems a session found are what the resuming engineer must not rediscover',
  toolSessionsOnly: true,
  match: ({ step }) => step.role === 'assistant' && problemSentences(step.text).length > 0,
  make: ({ step }, state) => {
    for (const label of problemSentences(step.text)) state.builder.mention('ERROR', label, { confidence: 0.85, turn: state.turn, uuid: step.uuid, status: 'completed' });
  },
  examples: {
    yes: [
      textStep('The session ID validation rejects empty strings.', false),
      textStep("There's BatchUploadTimeout (defaults to 10 seconds!) - that's likely the issue.", false),
      textStep("`git reset` doesn't clean up Entire state.", false),
      textStep('Three timestamp functions are fully duplicated between resume.go and rewind.go.', false),
      textStep('The logging package tests pass but there are 3 test failures in the cli package where tests expect the old paths.', false),
    ],
    no: [
      textStep('All tests pass.'),
      textStep('All clean — 1324 tests pass, 0 failures, lint passes with no errors.'),
      textStep('All 3 tests fail as expected, confirming the bugs.'),
      textStep('The issue is the first connection.'),
      textStep('Is the test failing because of the timeout?'),
      textStep('Let me run the full test suite to make sure nothing is broken elsewhere.'),
      textStep('Let me check why the hook does not trigger.'),
      textStep("It doesn't check AgentType though."),
      textStep('with the decryption logic that is still failing'),
    ],
  },
};

/** A user's sentence reporting a problem: "I've noticed X", "I can't see any usage of X", "I couldn't replicate X". */
const REPORTED =
  /\b(?:i(?:'ve| have)? noticed|i can't see|i couldn't|nothing obvious|doesn't work|isn't working|not working|still (?:got|get|see|have)|but (?:also|now) \d+|is broken|(?:is|are|was) not (?:correct|right)|(?:isn't|aren't|wasn't) (?:correct|right)|(?:is|that's) wrong)\b/i;

const userProblem: Rule<PromptInput> = {
  id: 'error.user-report',
  on: 'prompt',
  matches: 'a sentence of a prompt reporting a problem: "I\'ve noticed X", "I can\'t see any usage of X", "nothing obvious in X", "I couldn\'t replicate X"',
  makes: 'an ERROR labelled with the sentence (up to 16 words)',
  why: 'what the user saw go wrong is the problem the session works on',
  toolSessionsOnly: true,
  match: ({ prompt }) => reported(prompt.text).length > 0,
  make: ({ prompt }, state) => {
    for (const label of reported(prompt.text)) state.builder.mention('ERROR', label, { confidence: 0.85, turn: state.turn, uuid: prompt.uuid, status: 'completed' });
  },
  examples: {
    yes: [promptStep('Hm, ok, nothing obvious in the trace. Could it be a timeout?'), promptStep("claude stop is not correct, that is at the end of the assistant's turn.")],
    no: [promptStep('Please add a retry.')],
  },
};

function reported(text: string): string[] {
  return sentences(text)
    .filter((s) => REPORTED.test(s) && !/\?\s*$/.test(s) && s.split(/\s+/).length >= 3 && s.length < 300)
    .map((s) => statedLabel(s).split(/\s+/).slice(0, WORDS).join(' '))
    .filter((l) => l.split(/\s+/).length >= 3);
}

/** "Stop hook feedback:\n[script]: ...Cannot exit with unstaged changes." -> the hook and the lines that say why it blocked. */
export function hookFeedback(text: string): string[] {
  const m = /^(\w+) hook feedback:\s*([\s\S]*)$/i.exec(text.trim());
  if (!m) return [];
  const lines = m[2]
    .split('\n')
    .map((l) =>
      l
        .replace(/^\[[^\]]*\]:\s*/, '')
        .replace(/^#+\s*/, '')
        .trim(),
    )
    // "If you've hit a problem you cannot solve ...": what to do if, not what blocked.
    .filter((l) => /\b(?:cannot|can't|error|fail(?:ed|s)?|blocked|not allowed|must)\b/i.test(l) && !/^(?:if|when|"|')\b|^["']/i.test(l) && l.length < 200);
  return [...new Set(lines)].slice(0, 3).map((l) => normaliseLabel(`${m[1]} hook: ${l}`));
}

const hookBlocked: Rule<TextInput> = {
  id: 'error.hook-feedback',
  on: 'text',
  client: 'Claude Code sends a blocking hook\'s output as a user line "<Event> hook feedback:" (seen in 2.1.14 logs)',
  matches: 'a "<Event> hook feedback:" line: a hook blocked the session',
  makes: 'an ERROR per line of the feedback that says what blocked ("Stop hook: Cannot exit with unstaged changes"); the line is no prompt of the user\'s',
  why: 'a hook that blocked is a problem the session had to clear, and its text is not the user asking for work',
  final: true,
  match: ({ step }) => step.role === 'user' && /^\w+ hook feedback:/i.test(step.text.trim()),
  make: ({ step }, state) => {
    for (const label of hookFeedback(step.text)) state.builder.mention('ERROR', label, { confidence: 0.95, turn: state.turn, uuid: step.uuid, status: 'completed', fuzzy: false });
  },
  examples: {
    yes: [
      {
        ...textStep(''),
        step: {
          kind: 'text',
          role: 'user',
          uuid: 'u1',
          text: 'Stop hook feedback:\n[${CLAUDE_PLUGIN_ROOT}/scripts/hooks/stop.sh]: # Running Quality Checks...\n\n# Uncommitted Changes Detected\n\nCannot exit with unstaged changes.',
        },
      },
    ],
    no: [
      textStep('Stop hook feedback: I will look at it.'),
      {
        ...textStep(''),
        step: {
          kind: 'text',
          role: 'user',
          uuid: 'u1',
          text: 'Stop hook feedback:\nIf you\'ve hit a problem you cannot solve without user input:\n  "I have run into a problem I can\'t solve without user input."',
        },
      },
    ],
  },
};

/** "- `ShutdownTimeout: 100ms` - caps how long `Close()` waits": a setting chosen, with what it does. */
function settingItems(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[-*]|\d+[.)])\s+`([^`]+?\s*[:=]\s*[^`]+)`\s*[-–—:]\s+(.{6,})$/.exec(line);
    // "`resume.go:promptOverwriteNewerLog()` - for single session" names a function in a file, not a setting.
    if (!m || /^[\w./-]+\.\w+:\S/.test(m[1])) continue;
    const label = normaliseLabel(`${m[1].trim()} ${m[2].replace(/`|\*\*/g, '')}`.split(/\s+/).slice(0, WORDS).join(' '));
    if (!out.includes(label)) out.push(label);
  }
  return out;
}

const settingChosen: Rule<TextInput> = {
  id: 'decision.setting-why',
  on: 'text',
  matches: 'a list item of a reply naming a setting and its value in code, then what it does: "- `ShutdownTimeout: 100ms` - caps how long Close() waits"',
  makes: 'a DECISION "<setting: value> <what it does>"',
  why: 'a value set with its reason is a choice the resumed session must keep',
  toolSessionsOnly: true,
  match: ({ step }) => step.role === 'assistant' && settingItems(step.text).length > 0,
  make: ({ step }, state) => {
    for (const label of settingItems(step.text)) decide(state, label, step.uuid, 0.85);
  },
  examples: {
    yes: [textStep('Fixed by setting:\n- `ShutdownTimeout: 100ms` - caps how long `Close()` waits\n- `BatchUploadTimeout: 200ms` - caps HTTP request time')],
    no: [textStep('- `main.go` - added trace support'), textStep('- `resume.go:promptOverwriteNewerLog()` - for single session')],
  },
};

/** A report's line that names a choice made: "Used X instead of Y", "Made X optional (because ...)", "Kept X". */
const CHOICE_REPORT = /^(?:used|chose|went with|opted for|switched to|made\s+.{3,60}?\s+(?:optional|allowed|required|the default|configurable|explicit|private|public))\b/i;

function choiceReports(text: string): string[] {
  const out: string[] = [];
  for (const line of text.replace(/```[\s\S]*?```/g, ' ').split('\n')) {
    const m = /^\s*(?:[-*•]|\d+[.)])\s+(.+)$/.exec(line);
    if (!m) continue;
    const item = m[1]
      .replace(/\*\*|`/g, '')
      .replace(/^[\w./-]+\.\w+\s*[-–—:]\s+/, '')
      .trim();
    if (!CHOICE_REPORT.test(item) || item.split(/\s+/).length < 3) continue;
    const label = normaliseLabel(closeClipped(item, WORDS));
    if (!out.includes(label)) out.push(label);
  }
  return out;
}

const reportedChoice: Rule<TextInput> = {
  id: 'decision.report-choice',
  on: 'text',
  matches: 'a list item of a reply reporting a choice made: "Used generics with trait bounds for invert_dict()", "Made empty session ID allowed (validation only ...)", "Switched to X"',
  makes: 'a DECISION labelled with the item (up to 16 words)',
  why: 'a report of work names its choices with the same verbs a person would use for them',
  toolSessionsOnly: true,
  match: ({ step }) => step.role === 'assistant' && choiceReports(step.text).length > 0,
  make: ({ step }, state) => {
    for (const label of choiceReports(step.text)) decide(state, label, step.uuid, 0.7);
  },
  examples: {
    yes: [textStep('Key changes:\n- Used generics with trait bounds for `invert_dict()` to work with any hashable types\n- Made empty session ID allowed (validation only runs for non-empty IDs)')],
    no: [textStep('- Added a retry\n- Used it'), textStep('Used generics everywhere, as planned.')],
  },
};

/** "API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}" -> "API Error: 529 overloaded". */
export function apiErrorLabel(text: string): string | undefined {
  const m = /^API Error:\s*(\d{3})?\s*([\s\S]*)$/.exec(text.trim());
  if (!m) return undefined;
  const message = /"message"\s*:\s*"([^"]{1,80})"/.exec(m[2])?.[1] ?? /^[^{\n]{1,80}/.exec(m[2])?.[0] ?? '';
  return normaliseLabel(`API Error: ${m[1] ?? ''} ${message.toLowerCase()}`.replace(/\s+/g, ' '));
}

const apiError: Rule<TextInput> = {
  id: 'error.api',
  on: 'text',
  client: 'Claude Code writes a failed API call as a synthetic assistant line (model "<synthetic>", isApiErrorMessage) whose text opens "API Error: <status>" (seen in 2.1.5 logs)',
  matches: 'an assistant text that is the client\'s report of a failed API call ("API Error: 529 {...overloaded...}")',
  makes: 'an ERROR "API Error: <status> <message>", settled (the session went on)',
  why: 'an overloaded or failing API interrupted the work; it is not the model speaking',
  final: true,
  match: ({ step }) => step.role === 'assistant' && apiErrorLabel(step.text) !== undefined,
  make: ({ step }, state) => {
    state.builder.mention('ERROR', apiErrorLabel(step.text)!, { confidence: 0.95, turn: state.turn, uuid: step.uuid, status: 'completed', fuzzy: false });
  },
  examples: {
    yes: [textStep('API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":null}')],
    no: [textStep('The API returns an error when the token expires.')],
  },
};

/**
 * The lines of a prompt that paste a tool's failure: "⨯ release failed after 22m5s  error=notarize: macos: ...: context deadline exceeded",
 * "Error: Cannot find module 'x'". A wrapped error chain ("a: b: c: d") is said by its head and its last link.
 */
export function pastedErrors(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(/^[⨯✗×•]\s*/, '');
    const m = /^(.{4,120}?)\s+error="?(.+?)"?$/.exec(line) ?? /^(?:Error|error|ERROR|FAIL(?:ED)?)\b:?\s+(.+)$/.exec(line);
    // "The process '/x/goreleaser' failed with exit code 1" says only that something failed.
    if (!m || !/^[⨯✗×]|\berror[=:]|^(?:error|FAIL)/i.test(raw.trim()) || /\b(?:failed|exited) with (?:exit )?(?:code|status) \d+\.?$/i.test(line)) continue;
    const chain = (m[2] ?? m[1]).split(/:\s+/);
    const said = chain.length > 2 ? `${chain[0]}: ${chain[chain.length - 1]}` : chain.join(': ');
    const label = normaliseLabel(m[2] ? `${clipWords14(m[1])}: ${clipWords14(said)}` : clipWords14(said));
    if (label.split(/\s+/).length >= 2 && !out.includes(label)) out.push(label);
  }
  return out.slice(0, 3);
}

function clipWords14(text: string): string {
  return closeClipped(
    text
      .replace(/"https?:\/\/[^"]*"/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
    14,
  );
}

const userPasted: Rule<PromptInput> = {
  id: 'error.user-pasted',
  on: 'prompt',
  matches: 'a line of a prompt that pastes a tool\'s failure ("⨯ release failed after 22m5s error=notarize: ...: context deadline exceeded", "Error: Cannot find module \'x\'")',
  makes: 'an ERROR per pasted failure: the line\'s head and the error said by the first and last links of its chain ("release failed after 22m5s: notarize: context deadline exceeded")',
  why: 'what the user saw fail, pasted from their terminal, is the problem the session works on',
  toolSessionsOnly: true,
  match: ({ prompt }) => pastedErrors(prompt.text).length > 0,
  make: ({ prompt }, state) => {
    for (const label of pastedErrors(prompt.text)) state.builder.mention('ERROR', label, { confidence: 0.85, turn: state.turn, uuid: prompt.uuid, status: 'completed', fuzzy: false });
  },
  examples: {
    yes: [promptStep('I ran the release and got:\n  ⨯ release failed after 22m5s  error=notarize: macos: notarize dist/cli: Get "https://example.com/x": context deadline exceeded')],
    no: [promptStep('Please handle the error when the file is missing.'), promptStep('the error: it hangs'), promptStep("Error: The process '/opt/goreleaser' failed with exit code 1")],
  },
};

export const STATED_TEXT_RULES: Rule<TextInput>[] = [apiError, hookBlocked, settingChosen, reportedChoice, replyChoice, replyProblem];
export const STATED_PROMPT_RULES: Rule<PromptInput>[] = [userDirective, userProblem, userPasted];
export const STATED_SUMMARY_RULES: Rule<SummaryInput>[] = [summaryChoice];
