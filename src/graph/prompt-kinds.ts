// What a user prompt asks for, read from its grammar: an instruction ("Add rate limiting"), a
// choice ("Use bcrypt"), a problem report ("Login returns 422"), a terse topic ("Observability"),
// a question that asks for work ("Can we persist the cart?"), a plain question, an
// acknowledgement ("Nice."), a measurement, or a report that something is done.

import { sentences, wordCount } from './labels.js';
import { isQuestion } from './decisions.js';
import { INSTRUCTION_VERBS } from './work-verbs.js';

export type PromptKind = 'instruction' | 'choice' | 'problem' | 'topic' | 'ask' | 'ack' | 'question' | 'measurement' | 'done-report' | 'statement';

export interface PromptClause {
  kind: PromptKind;
  /** The clause without politeness ("please", "can you"): what the label is made of. */
  text: string;
}

const CHOICE_VERBS = /^(?:use|go with|switch to|adopt|choose|pick|prefer|stick with)\b/i;

/** Politeness and glue before the verb of an instruction. */
const LEAD_IN =
  /^(?:(?:ok(?:ay)?|great|thanks|thank you|cool|nice|good|perfect|alright|right|yes|yeah|so|and|also|now|then|next|finally|first|lastly|just|pls|please|hey|hi|looks good|sounds good|lgtm|that works|works for me|noted|got it|makes sense)[,.!:]?\s+)*(?:(?:i think|i guess|maybe|perhaps|probably)\s+)?(?:(?:can|could|would|will) you(?: please)?\s+|please\s+|i(?:'d| would) like you to\s+|i want you to\s+|i need you to\s+|go ahead and\s+|let'?s\s+|lets\s+|we (?:need|should|must) (?:to\s+)?|you should\s+|help me\s+|time to\s+)?/i;

const PROBLEM =
  /\b(?:errors?|exceptions?|crash(?:es|ed|ing)?|fail(?:s|ed|ing|ures?)?|broken|breaks?|bugs?|blank|hangs?|hanging|stuck|freez\w*|slow(?:er|ly|s)?|leak\w*|spik\w*|lag|timeouts?|timed out|oom\w*|killed|down|regress\w*|too (?:long|slow|big|large|many|much|short)|weak|missing|wrong|incorrect|not working|doesn'?t work|does not work|isn'?t working|won'?t|can'?t|cannot|unable|duplicat\w*|twice|cves?|vulnerab\w*|warnings?|deadlock\w*|race condition|flaky|overflow\w*|grow(?:s|ing)?|fills? up|ha(?:s|ve) no|returns? [45]\d\d|[45]\d\d errors?|takes? \d+\s*(?:s|sec|seconds?|mins?|minutes?|h|hrs?|hours?)\b)/i;
const DONE_REPORT = /\b(?:done|fixed|finished|completed|resolved|works now|working now|stable now|is stable|merged|shipped|deployed|passed)\b/i;
/** Common finite verbs: a short clause with one is a statement ("Reviewer said ..."), not a topic. */
const FINITE_VERB =
  /\s(?:is|are|was|were|be|been|has|have|had|does|did|got|gets|said|says|shows|showed|looks|seems|returns|takes|took|works|worked|went|came|made|found|thinks|wants|needs|asked|told|got)\b/i;
const MEASUREMENT = /\d(?:[\d.,]*)\s?(?:%|ms|s\b|x\b|MB|GB|k\b)|\b[\w@-]+\s?[=:]\s?\d/;

/** The clauses of a prompt worth reading: its sentences, at most `max`, each classified. */
export function promptClauses(text: string, max = 4): PromptClause[] {
  const out: PromptClause[] = [];
  // Markdown headings of a pasted plan ("## Context") title what follows; they ask for nothing.
  const body = text
    .split(/\r?\n/)
    .filter((line) => !/^\s*#{1,6}\s/.test(line))
    .join('\n');
  for (const sentence of sentences(body)) {
    if (out.length >= max) break;
    out.push(classifyClause(sentence));
  }
  return out;
}

/** "Nice.", "Makes sense", "Sounds good, thanks!": a reply to the reply that asks for nothing. */
const ACK =
  /^(?:(?:ok(?:ay)?|great|thanks|thank you|thx|cool|nice|good|perfect|awesome|excellent|agreed|sounds good|sounds great|makes sense|looks good|looks great|lgtm|good catch|nice catch|got it|right|sure|yes|yeah|yep|yup|fine|noted|that works|works for me|love it|wonderful|brilliant|(?:great|nice|good) (?:work|job)|well done|exactly|correct|understood|indeed|alright|all right)[\s,.!]*)+$/i;
/** Agreement with what the reply proposed: "Yes, go with polars", "Agreed", "Let's do that". */
const AGREES =
  /^(?:(?:ok(?:ay)?|yes|yeah|yep|yup|sure|agreed|sounds good|makes sense|perfect|great|good|fine|cool|that works|works for me|lgtm|do it|do that|go ahead|let'?s do (?:it|that)|go with (?:it|that)|ship it)\b|.{1,40}\bit is\b|[\w.-]+(?:\s+[\w.-]+)?,\s+(?:yes|yeah|yep|sure|please)\b)/i;
/** Disagreement: "No, ...", "Let's not", "I'd rather ...". */
const DISAGREES = /^(?:no\b|nope\b|nah\b|let'?s not\b|i'?d rather\b|rather\b|instead\b|not\s)/i;

/** True when a prompt opens by agreeing with the reply before it. */
export function agrees(text: string): boolean {
  const t = text.trim();
  return AGREES.test(t) && !DISAGREES.test(t);
}

/** True when a prompt opens by turning the reply's proposal down. */
export function disagrees(text: string): boolean {
  return DISAGREES.test(text.trim());
}

/** "Can we persist the cart?", "How do we handle conflicts?", "What about retention?", "Tests?": work asked for as a question. */
const CAN_WE = /^(?:(?:and|so|also|ok(?:ay)?|now)[,]?\s+)?(?:can|could|shall) we\s+(.+?)[?.!]*$/i;
const HOW_DO_WE = /^(?:(?:and|so|ok(?:ay)?|now)[,]?\s+)?how (?:do|should|can|would|will|could) (?:we|i|you)\s+(.+?)[?.!]*$/i;
const WHAT_ABOUT = /^(?:(?:and|so|ok(?:ay)?)[,]?\s+)?(?:what|how) about\s+(.+?)[?.!]*$/i;
const BARE_TOPIC = /^(?:(?:and|also|plus|then)\s+)?(.{2,60}?)\s*\?+$/i;
/** "SEO folks want hreflang tags", "My advisor wants a limitations paragraph": a request passed on. */
const WANTS = /^(?!(?:i|we|you|they|it|he|she)\b)((?:[\w'-]+\s+){0,3}[\w'-]+)\s+(?:wants?|needs?|asked for|asks for|requested|would like|'d like)\s+(?!to\b)(.{3,})$/i;
const I_WANT = /^(?:i|we)\s+(?:want|need|would like|'d like)\s+(?!(?:you\s+)?to\s+(?:know|understand|see why|ask)\b)(?:you\s+)?(?:to\s+)?(?:also\s+|just\s+)?(.{3,})$/i;

/** Prompts that steer the conversation without asking for anything new. */
const CONTROL =
  /^(?:(?:ok(?:ay)?|yes|yeah|great|thanks)[,.!]?\s*)?(?:keep going|go on|carry on|continue|proceed|go ahead|give me an update|any updates?|status(?: update)?|update me|where are we|what'?s the status|next|more)\b[.!?]*$/i;

/**
 * What a request passed on asks for: "SEO folks want hreflang tags" -> hreflang tags. "Chunking
 * section needs more depth" -> more depth in Chunking section: a comparative only says how its
 * subject should change, so the subject stays.
 */
function wanted(m: RegExpExecArray): string {
  if (m[2] === undefined) return m[1].replace(/^(?:a|an|the|some)\s+/i, '');
  const object = m[2].replace(/^(?:a|an|the|some)\s+/i, '');
  return /^(?:more|less|fewer|better|clearer|shorter|longer)\b/i.test(object) ? `${object} in ${m[1].replace(/^(?:the|our|my|this)\s+/i, '')}` : object;
}

export function classifyClause(sentence: string): PromptClause {
  const trimmed = sentence.trim();
  if (CONTROL.test(trimmed)) return { kind: 'statement', text: trimmed };
  if (ACK.test(trimmed)) return { kind: 'ack', text: trimmed };
  const body = trimmed
    .replace(LEAD_IN, '')
    .replace(/^(?:also|just|then|now|please|maybe)\s+/i, '')
    .trim();
  const asksPolitely = body !== trimmed && /^(?:ok(?:ay)?[,.!]?\s+)?(?:can|could|would|will) you\b/i.test(trimmed);
  const firstWord = body.split(/[\s,.:;!?]+/)[0]?.toLowerCase() ?? '';
  const asked = /\?\s*$/.test(trimmed);
  if (CHOICE_VERBS.test(body) && (!asked || asksPolitely)) return { kind: 'choice', text: body.replace(/[?!.]+$/, '') };
  // "Post got 3200 views": a noun that could be a verb, followed by the sentence's real verb.
  const words = body.split(/\s+/);
  // "Cache invalidation on every deploy is slow": a noun phrase then its verb, not "Cache the results".
  const lead = words.slice(1, 6).join(' ');
  const nounSubject =
    !/^(?:a|an|the|my|our|your|this|that|these|those|all|some|it|them|to|in|on|for|with|up|out|sure|\d.*)$/i.test(words[1] ?? '') &&
    FINITE_VERB.test(` ${lead}`) &&
    !/\b(?:that|which|who|where|when|if|so|and|but)\b/i.test(lead.slice(0, FINITE_VERB.exec(` ${lead}`)!.index));
  const verbSecond = FINITE_VERB.test(` ${words.slice(1, 2).join('')}`) || nounSubject;
  if (INSTRUCTION_VERBS.has(firstWord) && !verbSecond && (!asked || asksPolitely)) {
    return { kind: 'instruction', text: body.replace(/[?!.]+$/, '').replace(/,?\s+please$/i, '') };
  }
  const wants = WANTS.exec(trimmed.replace(/[.!]+$/, '')) ?? I_WANT.exec(trimmed.replace(/[.!]+$/, ''));
  if (wants && !asked) return { kind: 'topic', text: wanted(wants) };
  const ask = askedFor(trimmed);
  if (ask) return ask;
  if (isQuestion(trimmed)) return { kind: 'question', text: trimmed };
  // "Deduplication needed — 3% duplicates": a request stated as a need.
  const needed = /^(.{3,60}?)\s+(?:is |are )?(?:needed|required|missing)\b/i.exec(trimmed);
  if (needed && wordCount(needed[1]) <= 5 && !/^(?:i|we|you|it|this|that|they)\b/i.test(needed[1])) return { kind: 'topic', text: needed[1] };
  if (DONE_REPORT.test(trimmed) && !/\b(?:still|again|not|no longer|but|yet)\b/i.test(trimmed)) return { kind: 'done-report', text: trimmed };
  if (PROBLEM.test(trimmed)) return { kind: 'problem', text: trimmed };
  if (MEASUREMENT.test(trimmed) && wordCount(trimmed) <= 12) return { kind: 'measurement', text: trimmed };
  if (wordCount(trimmed) <= 6 && !/^(?:i|we|you|it|this|that|they|he|she|there)\b/i.test(trimmed) && !FINITE_VERB.test(trimmed)) {
    return { kind: 'topic', text: trimmed.replace(/[.!]+$/, '').replace(/,?\s+please$/i, '') };
  }
  return { kind: 'statement', text: trimmed };
}

/** A question that asks for work: its object is what to do (done only if the reply does it). */
function askedFor(sentence: string): PromptClause | undefined {
  if (!/\?\s*$/.test(sentence) && !CAN_WE.test(sentence)) return undefined;
  const can = CAN_WE.exec(sentence);
  if (can) return { kind: INSTRUCTION_VERBS.has(can[1].split(/\s+/)[0].toLowerCase()) ? 'instruction' : 'ask', text: can[1] };
  const how = HOW_DO_WE.exec(sentence) ?? WHAT_ABOUT.exec(sentence);
  if (how) return { kind: 'ask', text: how[1].replace(/^(?:a|an|the)\s+/i, '') };
  const bare = BARE_TOPIC.exec(sentence);
  if (bare && wordCount(bare[1]) <= 6 && !QUESTION_START.test(bare[1]) && !FINITE_VERB.test(` ${bare[1]}`) && !/^(?:it|this|that|they|anything|something|why|really|sure|right)\b/i.test(bare[1])) {
    return { kind: 'ask', text: bare[1].replace(/^(?:the|a|an)\s+/i, '') };
  }
  return undefined;
}

const QUESTION_START = /^(?:should|shall|could|would|can|do|does|did|is|are|was|were|what|which|how|why|when|where|who|whether|any|anything)\b/i;
