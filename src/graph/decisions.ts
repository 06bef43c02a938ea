// Decisions in prose, with their rationale: "Decided: X", "I'll use X instead of Y because Z",
// "switched from X to Y" (Y supersedes X), "chose X over Y", "X felt like the right call", "X it
// is", "dropped Y in favour of X", and proposals ("I'd go with X") that the next prompt answers.
// Questions and negations are not decisions. A decision's content splits into its choices.

import { isPath } from './mentions.js';
import { clipWords, contentWords, normaliseLabel, wordCount } from './labels.js';
import { adoptedTechnologies, nameAndRole, startsWithName } from './technologies.js';
import { INSTRUCTION_VERBS } from './work-verbs.js';

export interface DecisionItem {
  label: string;
  /** A few words of why (a purpose or a reason). */
  why?: string;
  /** Alternatives set aside: "instead of Y", "(not Y)", "switched from Y". */
  rejected: string[];
}

export interface DecisionStatement {
  items: DecisionItem[];
  /** "switched from X to Y": the items supersede these. */
  supersedes: string[];
  confidence: number;
  /** "I'd go with X", "I'd suggest X": put forward, for the other side to accept or refuse. */
  proposal?: boolean;
  /** "I'd split it into ...": a course of action, a decision only once the other side agrees. */
  tentative?: boolean;
  /** "Shall I go with X?": asked of the user; from the user it is only a question. */
  offered?: boolean;
}

/** "Decided: ...", "Stack: ...": a label announcing a choice. */
const DECISION_LABEL =
  /^(?:final\s+)?(?:decided|decision|decisions|chose|chosen|choice|selected|picked|using|use|going with|approach|strategy|stack|tech stack|tools?|tooling|solution|fix|resolution|plan|design|architecture)\s*:\s*(.+)$/i;
/** First-person choice verbs: "I'll use X", "we went with X", "let's go with X". */
const CHOICE =
  /^(?:(?:so|ok|okay|then|now|here),?\s+)?(?:i|we|i'll|we'll|i will|we will|i'm going to|we're going to|we are going to|i am going to|let's|lets|i've|we've|i have|we have|(i'd|we'd|i would|we would)|i|we)?\s*(?:decided (?:to use|to go with|on|to)|(?:will |'ll )?(?:use|used(?!\s+to\b)|go with|went with|going with|opt(?:ed)? for|settled? on|chose|choose|picked|pick|prefer(?:red)?|switch(?:ed)? to|stick with|adopt(?:ed)?|lean(?:ing)? towards?|keep(?!\s+\w+ing\b))|(suggest|recommend|propose))\s+(.+)$/i;
/** "Since you already run Redis, I'll ...", "For scoring I'd ...": a lead-in before the one who decides. */
const LEAD_IN =
  /^(?:(?:so|ok|okay|then|now|here|right|yes|sure|instead|also|finally|honestly),?\s+|(?:for|in|on|since|as|given|because|with|after|to|at|from)\s+[^,;]{1,60}?,?\s+(?=(?:i|we|i'll|we'll|i'd|we'd|i've|we've|let's|lets)\b))/i;
/** "Dropped the regex dependency in favour of a hand-written matcher". */
const IN_FAVOUR = /\b(?:dropp|replac|remov|ditch|swapp|abandon|retir)\w*\s+(?:the\s+)?(.+?)\s+in favou?r of\s+(.+)$/i;
/** "Authentication uses GitHub OIDC instead of long-lived keys": the thing used, and the one not. */
const USES_INSTEAD = /\b(?:uses?|using|used|via|through|runs? on|backed by)\s+(.+?),?\s+(?:instead of|rather than)\s+(.+)$/i;
/** "Running them as a separate step felt like the right call", "A dropdown makes sense", "Loki it is". */
const RIGHT_CALL =
  /^(.{3,90}?)\s+(?:felt|feels|seemed|seems|is|was|looks|sounds|would be|'s)\s+(?:like\s+)?(?:the\s+|a\s+)?(?:right|best|better|simplest|safest|cleanest|obvious|sensible|good|smart|clear|natural)\s+(?:call|choice|option|fit|approach|move|bet|way|pick|idea|answer|route)\b/i;
const MAKES_SENSE = /^(.{2,60}?)\s+(?:makes?|made)\s+(?:more\s+|the most\s+|most\s+)?sense\b/i;
const WAY_TO_GO = /^(.{2,60}?)\s+(?:is|was|'s)\s+the way to go\b/i;
/** "Phoenix.Presence fits this": a thing judged to fit the need. */
const FITS = /^(.{2,60}?)\s+(?:fits|suits)\s+(?:this|that|here|well|best|the bill|nicely|the need)\b/i;
const IT_IS = /^(?:(?:ok(?:ay)?|agreed|fine|right|then|alright|great),?\s+)*(.{2,40}?)\s+it is[.!]*$/i;
/** "The simplest robust option is last-write-wins per field". */
const BEST_IS =
  /^(?:the|our|my)\s+(?:(?:simplest|best|safest|cleanest|easiest|right|better|obvious|natural|standard|cheapest|fastest|most \w+)\s+)+(?:\w+\s+)?(?:option|choice|approach|fix|solution|bet|way|answer|route|pick|move|plan)\s+(?:here\s+)?(?:is|was|would be|'s)\s+(.+)$/i;
/** "I'm moving them into Pinia stores": a move into a named thing chooses it. */
const MOVE_INTO = /\b(?:mov|migrat|port|convert|switch)(?:e|es|ed|ing)?\s+(?:[\w'-]+\s+){0,4}?(?:in)?to\s+(?:the\s+|a\s+|an\s+)?(.+)$/i;
/** "Prices are now kept as integer cents": a representation chosen. */
const KEPT_AS =
  /^.{2,60}?\s+(?:is|are)\s+(?:now\s+)?(?:kept|stored|represented|modell?ed|encoded|held|tracked)\s+as\s+(.{2,60}?)(?:\s+(?:throughout|everywhere|internally|now))?(?:\s+(?:and|so|because|since)\b.*)?[.!]*$/i;
/** "pinia-plugin-persistedstate handles that". */
const HANDLES = /^(?:(?:yes|sure|right|ok(?:ay)?)\s*[—–,:-]?\s*)?(\S+(?:\s+\S+)?)\s+(?:handles?|covers?|takes care of)\s+(?:that|this|it|both|all of (?:that|this))\b/i;
/** "logs go to an S3 bucket instead of local disk": what a preposition or verb takes instead of another. */
const TAKES_INSTEAD = /\b(to|into|in|on|onto|with|by|from)\s+((?:[^\s,;]+\s+){0,4}?[^\s,;]+),?\s+(?:instead of|rather than)\s+(.+)$/i;
/** "Set retention to 30 days": a setting chosen. */
const SET_TO =
  /^(?:(?:i|we)(?:'ve| have)?\s+)?(?:also\s+|then\s+|now\s+|just\s+)?(?:set|bumped|raised|lowered|capped|limited|pinned)\s+(?:the\s+)?(.{2,40}?)\s+to\s+([^\s,;]+(?:\s+(?!with\b|via\b|using\b|so\b|for\b|and\b)[^\s,;]+)?)/i;
/** "I'd split it into three sections and move X into an appendix": a course of action put forward. */
const PROPOSE_ACTION = /^(?:i'd|i would|we'd|we would|i suggest we|i'd suggest we|i recommend we|i'd recommend we|i propose we|my suggestion is to)\s+([a-z]+)\s+(.{3,})$/i;
const VAGUE_SUBJECT = /^(?:it|this|that|these|those|which|both|either|all|everything|that approach|this approach)$/i;
const SWITCH = /\b(?:switch(?:ed|ing)?|migrat(?:ed|ing|e)|mov(?:ed|ing|e)|chang(?:ed|ing|e)|convert(?:ed|ing)?)\s+(?:\w+\s+){0,3}?from\s+(.+?)\s+to\s+(.+)$/i;
const REPLACE = /\breplac(?:ed|ing|e)\s+(.+?)\s+with\s+(.+)$/i;
/** "I'll X instead of Y, because Z": a first-person plan that names the road not taken. */
const PLAN_WITH_ALTERNATIVE = /^(?:(?:so|ok|now|here),?\s+)?(?:i'll|we'll|i will|we will|i'm going to|we're going to|let's|lets|i'm|we're|i am|we are)\s+(.+?)\s+(?:instead of|rather than)\s+(.+)$/i;
const PLAN_WITH_REASON = /^(?:(?:so|ok|now|here),?\s+)?(?:i'll|we'll|i will|we will|i'm going to|we're going to|let's|lets)\s+(.+?),?\s+(?:because|since|so that)\s+(.+)$/i;

/** "Focus on LoRA/QLoRA", "we'll prioritise the API": a choice of where the effort goes. */
const FOCUS = /^(?:(?:so|then|now),?\s+)?(?:i'll |we'll |let's |we will |i will )?(?:focus(?:ing)? on|prioriti[sz]e|prioriti[sz]ing)\s+(.{2,})$/i;
/** "python 3.11→3.12-slim": a version moved on; the new one supersedes the old. */
const VERSION_SWITCH = /\b([A-Za-z][\w.-]*)\s+(v?\d[\w.]*)\s*(?:→|->)\s*(v?\d[\w.-]*)/g;
const UNIT = /\d(?:ms|s|sec|min|h|hr|hrs|d|[kmgt]b|%|x|k)$/i;

/** Every version switch a sentence states ("node 18→20-alpine, python 3.11→3.12-slim"). */
export function versionSwitches(sentence: string): DecisionStatement[] {
  const out: DecisionStatement[] = [];
  for (const m of sentence.matchAll(VERSION_SWITCH)) {
    const [, name, from, to] = m;
    if (UNIT.test(from) || UNIT.test(to)) continue;
    out.push({ items: [{ label: `${name} ${to}`, rejected: [] }], supersedes: [`${name} ${from}`], confidence: 0.75 });
  }
  return out;
}

/** "Shall I go with presence?", "Want me to use Redis?". */
const OFFER = /^(?:shall|should) (?:i|we) (?:go with|use|pick|switch to|stick with|adopt)\s+(.{2,60}?)\s*\?$|^(?:do you )?want me to (?:use|go with|switch to)\s+(.{2,60}?)\s*\?$/i;

const NEGATION = /\b(?:don'?t|do not|doesn'?t|won'?t|will not|shouldn'?t|should not|not going to|never|no longer|can'?t|cannot|avoid)\b/i;
const QUESTION_START = /^(?:should|shall|could|would|can|do|does|did|is|are|was|were|what|which|how|why|when|where|who|whether)\b/i;

export function isQuestion(sentence: string): boolean {
  return /\?\s*$/.test(sentence) || QUESTION_START.test(sentence.trim());
}

/** The decision a sentence states, or undefined: the whole sentence first, then each of its clauses. */
export function decisionIn(sentence: string): DecisionStatement | undefined {
  const s = sentence.trim();
  // "Shall I go with presence?": a choice put to the user, firm only once they agree.
  const offered = OFFER.exec(s);
  if (offered) {
    const found = statement(splitChoices(offered[1] ?? offered[2]), [], 0.6);
    return found && { ...found, proposal: true, tentative: true, offered: true };
  }
  if (isQuestion(s)) return undefined;
  const labelled = DECISION_LABEL.exec(s);
  if (labelled) return statement(splitChoices(labelled[1]), [], 0.85);
  // "Flower felt like overkill, so I went with X", "No — I'd keep it private and ...", "Set
  // retention to 30 days, and logs go to S3 instead of local disk": each clause may choose.
  // A clause that goes on with a verb ("..., and move X") shares the first one's subject: not split.
  const clauses = s.split(
    /,\s+(?=(?:so|but|then)\s+(?:i|we|let's|lets)\b)|,\s+and\s+(?![a-z]+\s)|,\s+and\s+(?=(?:i|we|let's|lets|[a-z]+\s+(?:go|goes|is|are|will|get|gets|stay|stays|run|runs|live|lives)\b))|;\s+|\s+[—–]\s+/i,
  );
  const found = [clauseDecision(s), ...(clauses.length > 1 ? clauses.map((c) => clauseDecision(c.replace(/^(?:so|and|but|then)\s+/i, ''))) : [])].filter(
    (d): d is DecisionStatement => d !== undefined,
  );
  if (found.length <= 1) return found[0];
  const [first, ...rest] = found;
  const seen = new Set(first.items.map((i) => i.label.toLowerCase()));
  const items = [...first.items];
  for (const d of rest)
    for (const item of d.items)
      if (!seen.has(item.label.toLowerCase()) && !first.items.some((i) => i.label.toLowerCase().includes(item.label.toLowerCase()))) {
        seen.add(item.label.toLowerCase());
        items.push(item);
      }
  // In the order the sentence names them.
  const at = (label: string) => s.toLowerCase().indexOf(label.toLowerCase().split(/\s+/)[0]);
  items.sort((a, b) => at(a.label) - at(b.label));
  return { ...first, items, supersedes: [...new Set(found.flatMap((d) => d.supersedes))] };
}

function clauseDecision(text: string): DecisionStatement | undefined {
  let s = text.trim();
  for (let lead = LEAD_IN.exec(s); lead && lead[0].length < s.length; lead = LEAD_IN.exec(s)) s = s.slice(lead[0].length);
  if (s === '' || isQuestion(s)) return undefined;
  const switched = SWITCH.exec(s) ?? REPLACE.exec(s);
  if (switched && !NEGATION.test(s.slice(0, switched.index))) {
    const [from, to] = [switched[1], switched[2]];
    const items = splitChoices(to.split(/,\s|;\s|\s[—–-]\s|\s(?:because|since|as|so)\s/)[0]);
    return statement(items, [head(from)], 0.8);
  }
  const favour = IN_FAVOUR.exec(s);
  if (favour && !NEGATION.test(s.slice(0, favour.index))) {
    return statement(
      splitChoices(favour[2]).map((item) => ({ ...item, rejected: [...item.rejected, head(favour[1])] })),
      [],
      0.75,
    );
  }
  if (NEGATION.test(s)) return undefined;
  const judged = RIGHT_CALL.exec(s) ?? MAKES_SENSE.exec(s) ?? WAY_TO_GO.exec(s) ?? FITS.exec(s) ?? IT_IS.exec(s);
  if (judged && !VAGUE_SUBJECT.test(judged[1].trim()) && contentWords(judged[1]).size > 0 && !/^(?:i|we|you)\b/i.test(judged[1])) {
    return statement([{ label: head(judged[1].replace(/^(?:a|an|the)\s+/i, '')), rejected: [] }], [], 0.75);
  }
  const best = BEST_IS.exec(s);
  if (best) return statement(splitChoices(best[1]), [], 0.75);
  const planned = PLAN_WITH_ALTERNATIVE.exec(s);
  if (planned) {
    const { text: rejected, why } = splitReason(planned[2]);
    const chosen = splitReason(planned[1]);
    const item = { label: head(stripChoiceVerb(chosen.text)), why: chosen.why ?? why, rejected: [head(rejected)] };
    return item.label ? statement([item], [], 0.75) : undefined;
  }
  const focus = FOCUS.exec(s);
  if (focus) return statement(splitChoices(focus[1]), [], 0.7);
  const chosen = CHOICE.exec(s);
  if (chosen && /^(?:i|we|let|so|ok|now|then|here|decided|went|opted|settled|chose|picked|switched|adopted|leaning)/i.test(s)) {
    const proposal = chosen[1] !== undefined || chosen[2] !== undefined;
    const found = statement(splitChoices(chosen[3]), [], proposal ? 0.7 : 0.75);
    return found && proposal ? { ...found, proposal } : found;
  }
  const action = PROPOSE_ACTION.exec(s);
  if (action && INSTRUCTION_VERBS.has(action[1].toLowerCase())) {
    const found = statement(courseOfAction(`${action[1]} ${action[2]}`), [], 0.6);
    return found && { ...found, proposal: true, tentative: true };
  }
  const kept = KEPT_AS.exec(s);
  if (kept) return statement([{ label: head(kept[1]), rejected: [] }], [], 0.7);
  // "to catch issues early rather than ...": after "to" a verb, not a thing taken.
  // "from the App Group container (group.com.x) instead of ...": an aside in brackets is no part of the thing.
  const plain = s.replace(/\s+\([^()]*\)/g, '');
  const uses = USES_INSTEAD.exec(plain);
  const taken = TAKES_INSTEAD.exec(plain);
  const thingTaken = taken && (taken[1].toLowerCase() !== 'to' || /^(?:a|an|the)\s/i.test(taken[2]) || startsWithName(taken[2]));
  const instead = uses ? { thing: uses[1], other: uses[2] } : thingTaken ? { thing: taken[2], other: taken[3] } : undefined;
  if (instead) {
    const { text: rejected } = splitReason(instead.other);
    // "rolls over by itself, rather than ...": when what it takes names nothing, the other rules may still read the clause.
    const found = statement([{ label: head(instead.thing.replace(/^(?:a|an|the)\s+/i, '')), rejected: [head(rejected)] }], [], 0.7);
    if (found) return found;
  }
  const moved = MOVE_INTO.exec(s);
  if (moved && startsWithName(moved[1])) return statement(splitChoices(moved[1].split(/\s+[—–]\s+|,\s+/)[0]), [], 0.7);
  const handled = HANDLES.exec(s);
  if (handled && startsWithName(handled[1])) return statement([{ label: normaliseLabel(handled[1]), rejected: [] }], [], 0.7);
  const set = SET_TO.exec(s);
  if (set && !/^(?:it|them|this|that|up|out)$/i.test(set[1])) return statement([{ label: normaliseLabel(`${set[1]} ${set[2]}`), rejected: [] }], [], 0.65);

  const reasoned = PLAN_WITH_REASON.exec(s);
  if (reasoned && wordCount(reasoned[1]) <= 14) {
    return statement([{ label: head(reasoned[1]), why: clipWords(reasoned[2], 10), rejected: [] }], [], 0.65);
  }
  return undefined;
}

/** A user instruction that is a choice: "Use bcrypt for password hashing", "Switch to Redis". */
export function decisionInPrompt(clause: string): DecisionStatement | undefined {
  const m = /^(?:use|go with|switch to|adopt|choose|pick|prefer|stick with|let's use|lets use)\s+(.+)$/i.exec(clause.trim());
  if (!m || isQuestion(clause)) return undefined;
  return statement(splitChoices(m[1], true), [], 0.8);
}

function statement(items: DecisionItem[], supersedes: string[], confidence: number): DecisionStatement | undefined {
  const kept = items.flatMap(namedChoices).filter((i) => namesAChoice(i.label));
  return kept.length > 0 ? { items: kept, supersedes: supersedes.filter(Boolean), confidence } : undefined;
}

/**
 * "keep them out of startup", "use what you learn": a choice about "them" or "what" names nothing
 * on its own; "loading moved to abtest/load.py": a path is where the work went, not a choice
 * ("clinic.js" is a tool).
 */
function namesAChoice(label: string): boolean {
  if (label === '' || wordCount(label) > 12) return false;
  if (wordCount(label) === 1 && label.includes('/') && isPath(label)) return false;
  return !/^(?:it|them|this|that|these|those|both|itself|themselves|what|whatever|which|whichever|how|where|who|you)\b|^one$/i.test(label);
}

/**
 * A choice stated as a long phrase that names its tools ("exporting queue length to Prometheus
 * via celery-exporter") is the tools it names; the phrase becomes their why.
 */
function namedChoices(item: DecisionItem): DecisionItem[] {
  if (wordCount(item.label) <= LONG_CHOICE) return [item];
  const names = adoptedTechnologies(item.label);
  if (names.length === 0) return [item];
  return names.map((name) => ({ label: name, why: item.why ?? clipWords(item.label, 8), rejected: item.rejected }));
}

const LONG_CHOICE = 6;

function stripChoiceVerb(text: string): string {
  return text.replace(/^(?:use|go with|keep|stick with|switch to)\s+/i, '');
}

/** Cuts a reason off a clause: "Y, because Z" -> text "Y", why "Z". */
function splitReason(text: string): { text: string; why?: string } {
  const m = /^(.*?),?\s+(?:because|since|so that|so|to avoid)\s+(.+)$/i.exec(text);
  return m ? { text: m[1], why: clipWords(normaliseLabel(m[2]), 10) } : { text };
}

/** A short head for a phrase: up to the first clause break, at most 10 words. */
function head(text: string): string {
  const cut = text.split(/\s+[—–]\s+|\s+-\s+|[;:]\s|,\s+(?:because|since|so|which|and then|but)\b/)[0];
  return normaliseLabel(clipWords(cut, 10));
}

/**
 * The choices in a decision's content: "React 18 + TypeScript + Vite" is three, "bcrypt for
 * password hashing" is bcrypt (why: password hashing), "native WebSocket (not socket.io)" is
 * native WebSocket with socket.io rejected.
 */
export function splitChoices(content: string, userInstruction = false): DecisionItem[] {
  let text = content.trim();
  const rejected: string[] = [];
  text = text.replace(/\((?:not|instead of|rather than|over)\s+([^)]+)\)/gi, (_, alt: string) => {
    rejected.push(normaliseLabel(alt));
    return '';
  });
  let why: string | undefined;
  const alt = /\s+(?:instead of|rather than|over)\s+(.+)$/i.exec(text);
  if (alt) {
    const reason = splitReason(alt[1]);
    rejected.push(head(reason.text));
    why = reason.why;
    text = text.slice(0, alt.index);
  }
  const reason = /,?\s+(?:because|since|as it|so that|so|to avoid|given)\s+(.+)$/i.exec(text);
  if (reason) {
    why ??= clipWords(normaliseLabel(reason[1]), 10);
    text = text.slice(0, reason.index);
  }
  const detail = /\s+[—–]\s+|\s+-\s+|:\s+|\s+\(/.exec(text);
  if (detail) {
    why ??= clipWords(normaliseLabel(text.slice(detail.index + detail[0].length)), 10);
    text = text.slice(0, detail.index);
  }
  return splitList(text, userInstruction).flatMap((part): DecisionItem | DecisionItem[] => {
    let label = part;
    let itemWhy = why;
    // Lower-case "for" only: "SELECT FOR UPDATE" is one choice, not a purpose.
    const purpose = /^(.{1,40}?)\s+(?:for|to handle)\s+(.+)$/.exec(part);
    if (purpose && wordCount(purpose[1]) <= 4) {
      label = purpose[1];
      itemWhy ??= clipWords(normaliseLabel(purpose[2]), 8);
    }
    const long = namedChoices({ label: normaliseLabel(label.replace(/^(?:a|an|the)\s+/i, '')), why: itemWhy, rejected: [] });
    if (long.length > 1 || long[0].label !== normaliseLabel(label.replace(/^(?:a|an|the)\s+/i, ''))) return long.map((i) => ({ ...i, rejected: rejected.filter(Boolean) }));
    const { name, role } = nameAndRole(normaliseLabel(clipWords(label.replace(/^(?:a|an|the)\s+/i, ''), 10)));
    return { label: name, why: itemWhy ?? role, rejected: rejected.filter(Boolean) };
  });
}

/** "split it into 3 sections, and move the details into an appendix rather than inline": each action, with what it sets aside. */
function courseOfAction(text: string): DecisionItem[] {
  const { text: body, why } = splitReason(text);
  const parts: string[] = [];
  let start = 0;
  for (const m of body.matchAll(/,?\s+and\s+([a-z]+)\s/gi)) {
    if (!INSTRUCTION_VERBS.has(m[1].toLowerCase())) continue;
    parts.push(body.slice(start, m.index));
    start = m.index + m[0].length - m[1].length - 1;
  }
  parts.push(body.slice(start));
  return parts
    .map((part) => part.trim())
    .map((part) => {
      const alt = /^(.+?)\s+(?:instead of|rather than)\s+(.+)$/i.exec(part);
      return { label: normaliseLabel(clipWords(alt ? alt[1] : part, 10)), why, rejected: alt ? [head(alt[2])] : [] };
    });
}

/** "A + B + C", "A, B and C", "A with B": a list when every part is short. */
function splitList(text: string, splitWith: boolean): string[] {
  const pattern = splitWith ? /\s*\+\s*|,\s*(?:and\s+)?|\s+and\s+|\s+&\s+|\s+with\s+/ : /\s*\+\s*|,\s*(?:and\s+)?|\s+and\s+|\s+&\s+/;
  const parts = text
    .split(pattern)
    .map((p) => p.trim())
    .filter(Boolean);
  // Each part's own purpose does not count against it: "an S3 bucket for the static files, CloudFront in front".
  const core = (p: string) => p.replace(/^(?:a|an|the)\s+/i, '').replace(/\s+(?:for|to handle|in front|on top|behind)\b.*$/, '');
  if (parts.length > 1 && parts.every((p) => wordCount(core(p)) <= 4)) return parts;
  return [text];
}
