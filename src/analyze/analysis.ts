// A batch analysis from paths to report: find the logs, analyse them over worker threads, and
// aggregate. What `cmv analyze` and the benchmark call.

import { findBatchFiles } from './batch-files.js';
import { analyseBatch, type BatchOptions } from './batch.js';
import { aggregate, countEachResponseOnce, type Aggregate } from './aggregate.js';
import type { BatchFailure } from './batch-protocol.js';
import type { SessionSummary } from './session-summary.js';
import { claudeConfigDirs } from '../session/locate.js';
import { CmvError } from '../errors.js';
import { ModelRegistry, pricingOverride } from '../cost/registry.js';

export interface AnalysisReport {
  aggregate: Aggregate;
  sessions: SessionSummary[];
  /** Files that could not be analysed, and arguments that named nothing. */
  failed: BatchFailure[];
  /** Logs without a conversation (titles, snapshots). */
  skipped: BatchFailure[];
  seconds: number;
  /** Worker threads used (0: this thread). */
  workers: number;
  /** Every call was priced as this model (`--model`, config `model`), not the model its log names. */
  priceOverride?: { model: string; pricedAs: string };
  /** Models of the logs that the price table does not know: their calls are left unpriced. */
  unpricedModels: string[];
}

export async function analysePaths(paths: string[], options: BatchOptions, configDirs: string[] = claudeConfigDirs()): Promise<AnalysisReport> {
  const started = performance.now();
  const registry = new ModelRegistry(options.models);
  const override = options.model ? pricingOverride(registry, options.model) : undefined;
  const { files, missing } = await findBatchFiles(paths, configDirs);
  if (files.length === 0 && missing.length === 0) {
    throw new CmvError('NOT_FOUND', paths.length ? `no .jsonl logs in ${paths.join(', ')}` : `no Claude Code sessions found in ${configDirs.join(', ')}`, {
      hint: 'pass a folder or files of session logs, or set CLAUDE_CONFIG_DIR',
    });
  }
  const batch = await analyseBatch(files, options);
  const failed = [...missing, ...batch.failed];
  const sessions = countEachResponseOnce(batch.sessions);
  return {
    aggregate: aggregate(sessions, failed, batch.skipped),
    sessions,
    failed,
    skipped: batch.skipped,
    seconds: (performance.now() - started) / 1000,
    workers: batch.workers,
    priceOverride: override && { model: options.model!, pricedAs: override.info.id },
    unpricedModels: [...new Set(sessions.flatMap((s) => s.unpricedModels ?? []))].sort(),
  };
}
