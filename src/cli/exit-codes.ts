// The one place where error codes become process exit codes.

import type { CmvErrorCode } from '../errors.js';

export const EXIT_OK = 0;

const EXIT_BY_CODE: Record<CmvErrorCode, number> = {
  USAGE: 2,
  NOT_FOUND: 3,
  AMBIGUOUS: 3,
  BAD_INPUT: 4,
  IO: 5,
  VERIFY_FAILED: 6,
  BUDGET_UNMET: 7,
  CONFLICT: 8,
  INTERNAL: 70,
};

export function exitCodeFor(code: CmvErrorCode): number {
  return EXIT_BY_CODE[code] ?? 1;
}
