// Work reported in plain sentences rather than labelled reports: "X is done now", "Got X working",
// "Cart persistence works", "There's now a banner", "I haven't run it yet", "X isn't set up yet",
// "X is still missing", "I'm partway through X". Read from the grammar, not from any one wording.

import { wordCount } from './labels.js';

export interface StatusPhrase {
  status: 'completed' | 'pending' | 'in_progress';
  /** What the work is ("Deduplication and type parsing are finished" names two). */
  labels: string[];
  /** True when the sentence names no work of its own ("Got it working", "That's sorted"). */
  vague: boolean;
  /** What the sentence says after naming the work ("scrubbed with Presidio"): where its tools are. */
  predicate: string;
}

const STATES =
  'done|complete|completed|finished|merged|live|in place|in and working|working|wired up|hooked up|set up|sorted|ready|fixed|resolved|up and running|deployed|published|shipped|implemented|handled|taken care of|imported|configured|enabled|installed|integrated|landed';
/** "Celery is set up in config/celery.py", "hreflang alternates are done now". */
const IS_DONE = new RegExp(String.raw`^(.{2,80}?)\s+(?:is|are|'s|'re)\s+(?:now\s+|all\s+|fully\s+|both\s+|already\s+)*(?:${STATES})\b(?!\s+(?:on|to|for|by|with|through)\b)`, 'i');
/** "Cart persistence works", "Login working now", "Per-client limits work now". */
const WORKS =
  /^(.{2,60}?)\s+(?:now\s+)?(?:works?|working)(?:\s+(?:now|again|fine|correctly|as expected|end to end|in dev|locally))+[.!]*$|^(.{2,60}?)\s+(?:now\s+)?(?:works|succeeds|succeeded|compiles|builds cleanly)[.!]*$/i;
/**
 * "PII is scrubbed with Presidio", "Names are normalised to title case now": a passive report of
 * finished work, when "now" or the instrument ("with Presidio") says it happened.
 */
const PASSIVE_DONE =
  /^(.{2,60}?)\s+(?:is|are)\s+(?:now\s+)?((?:[a-z]+(?:ed|en)|kept|built|set|made|split|cut|run|done|sent|read|written|stored|moved|dropped)\s+(?:(?:with|using|via|through|to|into|in|as|by|from|on)\s+)?.{0,80}?)[.!]*$/i;
const PASSIVE_WITNESS = /\bnow\b|\s(?:with|using|via|through)\s+(?:[A-Z][\w.-]*|[a-z]+[A-Z][\w-]*|[\w]+-[\w-]+)/;
/** "Store tests are in src/stores/__tests__/cart.spec.ts using Vitest": work that now exists at a path. */
const IN_PATH = /^(.{2,60}?)\s+(?:is|are)\s+(?:now\s+)?in\s+`?((?:[\w.@~-]+\/)+[\w.@-]*\.\w+)`?(.*)$/i;
/** "Got the initial migration working", "Got it down to 148 KB". */
const GOT = /^(?:(?:i|we)(?:'ve| have)?\s+)?got\s+(.+?)\s+(?:working|running|passing|green|going|done|fixed|sorted|deployed|building|compiling|(?:down|up) to\b|under\b)/i;
/** "There's now a banner driven by NetInfo", "there is a new make migrate target". */
const THERE_IS_NOW = /^there(?:'s| is| are)\s+(?:now\s+(?:a\s+new\s+)?|(?:now\s+)?(?:a\s+)?new\s+)(.{3,})$/i;
/** "I haven't published the first version yet", "but haven't run it against staging". */
const NOT_YET =
  /(?:^|\b(?:i|we)\s+)(?:haven't|have not|didn't get to|did not get to)\s+(?:yet\s+)?(?!(?:seen|noticed|found|heard|had|been|changed|touched|modified|needed|started)\b)([a-z][\w-]*\s.+?)(?:\s+yet)?(?:\s+(?:because|since|as|so)\b.*)?[.!]*$/i;
/** "The Alertmanager routing isn't set up yet", "French isn't started". */
const ISNT_YET =
  /^(.{2,70}?)\s+(?:isn't|is not|aren't|are not|hasn't been|haven't been|has not been|have not been)\s+(?:\w+\s+)?(?:started|done|set up|implemented|written|finished|built|added|wired up|configured|published|deployed|merged|tested|covered|handled|run|migrated)\b/i;
/** "The checkout store tests are still missing". */
const STILL_MISSING = /^(.{2,70}?)\s+(?:is|are)\s+still\s+(?:missing|pending|open|to do|todo|outstanding|unfinished|needed|left)\b/i;
/** "I'm partway through the sync engine", "I'm writing up docs/migrations.md now". */
const DOING_NOW =
  /^(?:i'm|i am|(?:we're|we are)(?=\s+(?:now|currently|still)\b))\s+(?:now\s+|currently\s+|still\s+)?(?:(?:partway|halfway|midway) through|in the middle of|(writing(?: up)?|drafting|adding|building|implementing|wiring(?: up)?|setting up|migrating|refactoring|fixing|updating|converting|porting|making|finishing|creating|integrating|documenting|rewriting))\s+(.{3,}?)(?:\s+now)?[.!]*$/i;

const VAGUE =
  /^(?:it|this|that|these|those|everything(?: else)?(?: \w+)*|all(?: of it| of them)?|the rest(?: \w+)*|both|that part|this part|which|what|things|stuff|everything from \w+|(?:the\s+)?(?:fix|change|changes|task|code|implementation|build|ci|pipeline|check|checks|test|tests|test suite|suite|lint|linting)(?: \w+)?)$/i;
/**
 * A subject that is itself a clause ("Let me verify everything", "I'll let you know when the
 * poems", "Once the server") reports no finished work: the sentence is a plan, a check or a condition.
 */
const NOT_A_SUBJECT =
  /\b(?:i|i'll|i'm|i've|we|we'll|you|you're|let me|let's|once|if|when|whether|until|unless|since|because|that|which|so that|verify|check|ensure|make sure|confirm|see|looking|shows?|would|could|should|might|may|will)\b|[(:*]|^[-•]/i;

/** The status a sentence reports, or undefined. `final`: the sentence is from the reply's summing up. */
export function statusPhrase(sentence: string, final: boolean): StatusPhrase | undefined {
  const s = sentence.trim();
  return phraseOf(s, final);
}

function phraseOf(s: string, final: boolean): StatusPhrase | undefined {
  const notYet = NOT_YET.exec(s);
  if (notYet && !/^\S+\s+(?:it|them|this|that|those|these)$/i.test(notYet[1])) return phrase('pending', notYet[1], '');
  const isnt = ISNT_YET.exec(s) ?? STILL_MISSING.exec(s);
  if (isnt) return subjectPhrase('pending', isnt[1], '');
  const done = IS_DONE.exec(s) ?? WORKS.exec(s);
  if (done) return subjectPhrase('completed', done[1] ?? done[2], s.slice(done[0].length), true);
  const placed = IN_PATH.exec(s);
  if (placed) return subjectPhrase('completed', placed[1], placed[3]);
  const got = GOT.exec(s) ?? THERE_IS_NOW.exec(s);
  if (got) return phrase('completed', got[1], got[1]);
  const passive = PASSIVE_DONE.exec(s);
  if (passive && PASSIVE_WITNESS.test(s) && !NOT_A_SUBJECT.test(passive[1]) && !/^(?:used|called|needed|supposed|required|expected|based|designed|meant|allowed)\b/i.test(passive[2])) {
    return subjectPhrase('completed', `${passive[1]} ${passive[2].replace(/\s+now$/i, '').replace(/^now\s+/i, '')}`, passive[2]);
  }
  const doing = final ? DOING_NOW.exec(s) : null;
  if (doing) return phrase('in_progress', doing[1] ? `${doing[1]} ${doing[2]}` : doing[2], doing[2]);
  return undefined;
}

/** A phrase whose work is named by the sentence's subject: none when the subject is a clause. */
function subjectPhrase(status: StatusPhrase['status'], subject: string, predicate: string, split = false): StatusPhrase | undefined {
  const clean = subject.replace(/^(?:(?:and|but|so|now|also|ok|okay|great|good|nice|yes|done)[,.!]?\s+)+/i, '').trim();
  if (NOT_A_SUBJECT.test(clean.split(/\s+/).slice(0, 12).join(' ')) && !VAGUE.test(clean)) return undefined;
  return phrase(status, clean, predicate, split);
}

function phrase(status: StatusPhrase['status'], subject: string, predicate: string, split = false): StatusPhrase {
  const clean = subject.replace(/^(?:(?:and|but|so|now|also|ok|okay|great|good|nice|yes|done)[,.!]?\s+)+/i, '').trim();
  const bare = clean.replace(/^(?:the|a|an|our|your|my|its|their)\s+/i, '');
  if (VAGUE.test(bare) || /^(?:i|we|you|they|he|she)$/i.test(bare)) return { status, labels: [], vague: true, predicate };
  // "Deduplication and type parsing are finished": two pieces of work, each a few words.
  const parts = split ? clean.split(/\s*,\s*(?:and\s+)?|\s+and\s+/) : [clean];
  const labels = parts.length > 1 && parts.every((p) => wordCount(p) <= 3) ? parts : [clean];
  return { status, labels, vague: false, predicate };
}
