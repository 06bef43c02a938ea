// The approved plan an ExitPlanMode result echoes: Claude Code (2.1.x; seen in the corpus logs
// entireio__skills__33/96 of 2.1.50+) answers an approved plan with its own note and then the plan
// again, word for word as the call's `plan` input, which the request sends right before. The echo
// points back to the call; a plan the user changed before approving differs from the input and
// stays whole (their words). Pure.

/** The heading Claude Code puts before the echoed plan. */
const APPROVED_PLAN_HEADING = '## Approved Plan:\n';

/** Plans shorter than this stay: the pointer would save little. */
const MIN_PLAN_CHARS = 200;

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

/**
 * The result with the echoed plan replaced by a pointer to the call's input, or undefined when
 * the result echoes no plan, or one that differs from `plan` by a single character.
 */
export function stubPlanEcho(text: string, plan: unknown): string | undefined {
  if (typeof plan !== 'string' || plan.length < MIN_PLAN_CHARS) return undefined;
  const at = text.indexOf(APPROVED_PLAN_HEADING);
  if (at < 0 || text.slice(at + APPROVED_PLAN_HEADING.length) !== plan) return undefined;
  return `${text.slice(0, at)}${APPROVED_PLAN_HEADING}[cmv: the plan of this call's input, word for word (${lineCount(plan)} lines)]`;
}
