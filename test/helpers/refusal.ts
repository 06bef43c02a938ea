// The CmvError a promise rejects with: the tests of refusals read its code and hint.

import { expect } from 'vitest';
import { CmvError } from '../../src/errors.js';

/** The CmvError `promise` rejects with; fails the test when it resolves or rejects with anything else. */
export async function refusal(promise: Promise<unknown>): Promise<CmvError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CmvError);
  return error as CmvError;
}
