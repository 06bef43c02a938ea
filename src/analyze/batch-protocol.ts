// What the batch runner and its workers say to each other, and how a failure is reported.

import type { ModelInfo } from '../cost/models.js';
import type { TrimOptions } from '../trim/options.js';
import { isCmvError } from '../errors.js';
import { NO_CONVERSATION } from './session-cost.js';
import type { SessionSummary } from './session-summary.js';

export interface WorkerSetup {
  models: ModelInfo[];
  model?: string;
  trim?: Partial<TrimOptions>;
}

export interface BatchJob {
  id: number;
  path: string;
}

export interface BatchFailure {
  path: string;
  error: string;
  /** A log with nothing to analyse (no conversation): listed apart, not an error. */
  skipped?: boolean;
}

export type WorkerReply = { id: number; summary: SessionSummary; failure?: undefined } | { id: number; failure: BatchFailure; summary?: undefined };

export function failureOf(path: string, error: unknown): BatchFailure {
  const message = error instanceof Error ? error.message : String(error);
  const skipped = isCmvError(error) && (error.details as { reason?: string } | undefined)?.reason === NO_CONVERSATION;
  return skipped ? { path, error: message, skipped } : { path, error: message };
}
