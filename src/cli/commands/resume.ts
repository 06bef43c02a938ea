// `cmv resume <session>`: the resume block of a session, in a tier or under a token budget.

import { openSession } from '../../session/session.js';
import { resolveSessionArg } from '../../session/locate.js';
import { buildGraph } from '../../graph/build-graph.js';
import { buildResume, TIER_BUDGETS, type ResumeBlock, type ResumeTier } from '../../graph/resume-block.js';
import { CmvError } from '../../errors.js';
import type { Output } from '../output.js';
import { positiveInt } from '../flags.js';

export interface ResumeCommandOptions {
  tier?: string;
  budget?: string;
}

export function tierOption(value: string | undefined): ResumeTier | undefined {
  if (value === undefined) return undefined;
  if (value in TIER_BUDGETS) return value as ResumeTier;
  throw new CmvError('USAGE', `--tier must be critical, standard or full, not "${value}"`, { hint: 'critical <= 100 tokens, standard <= 300, full <= 600' });
}

export async function resumeCommand(target: string, opts: ResumeCommandOptions, out: Output): Promise<void> {
  const tier = tierOption(opts.tier);
  const budget = positiveInt(opts.budget, '--budget');
  const graph = buildGraph(await openSession(await resolveSessionArg(target)));
  const block = buildResume(graph, { tier, budget });
  out.render(block, (b) => b.text || '(nothing to resume: the session has no prompt yet)', resumeJson);
}

export function resumeJson(block: ResumeBlock): unknown {
  return { text: block.text, tokens: block.tokens, tier: block.tier, budget: block.budget, sections: block.sections };
}
