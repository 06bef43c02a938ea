// V8's tiering, set for a command that runs for a second or two. Each rule says why, and what it
// was measured to change. Set once, first thing, by bin/cmv.js (and by the benches, which time
// cmv as it runs): V8's flags are the process's, so worker threads started later run with them.

import { setFlagsFromString } from 'node:v8';

export interface V8Rule {
  flag: string;
  why: string;
  evidence: string;
}

export const V8_RULES: readonly V8Rule[] = [
  {
    // V8 11.3 (Node 20) default: 67,584. The budget is the bytecode a function runs before V8
    // considers optimising it with TurboFan.
    flag: '--interrupt-budget=1000000',
    why:
      'At the default budget TurboFan compiles hundreds of lukewarm functions per thread, and every worker thread compiles the same ones again: ' +
      'a third of the CPU of a 50 MB hook run was V8 compiling on its background threads (perf, by thread). ' +
      'A larger budget optimises only what stays hot, which is most of the work of a long run.',
    evidence:
      'Alternated runs, session 10: `cmv analyze` of both corpora (41 MB, 2 workers) 2.76-3.54 s CPU -> 1.95-2.71 s; ' +
      'the PreCompact hook on the 50 MB log 2.02-2.40 s user CPU -> 1.73-1.80 s. Budgets of 0.3 M and 3 M did no better.',
  },
];

let tuned = false;

/** Sets V8_RULES' flags in this process (once; before the work, so the functions it runs see them). */
export function tuneV8(): void {
  if (tuned) return;
  tuned = true;
  for (const rule of V8_RULES) setFlagsFromString(rule.flag);
}
