// Flags several commands share: whole-number flags, and the trim flags with the defaults the
// user's config file gives them (the config is read by the commands, never by core).

import type { TrimOptions } from '../trim/options.js';
import type { CmvConfig } from '../config/config-keys.js';
import { CmvError } from '../errors.js';

/** What a user might type for each whole-number flag, for the hint of a bad value. */
const EXAMPLES: Record<string, number> = { '--threshold': 1000, '--budget': 40000, '--at': 10, '--jobs': 2, '--keep': 5, '--last': 10 };

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CmvError('USAGE', `${flag} must be a positive whole number, not "${value}"`, { hint: `for example ${flag} ${EXAMPLES[flag] ?? 10}` });
  return n;
}

export interface TrimFlags {
  threshold?: string;
  budget?: string;
  keepHistory?: boolean;
  stripUserImages?: boolean;
}

/** The trim options of the flags; without --threshold, the config's `trim.threshold`. */
export function trimOptionsOf(flags: TrimFlags, config?: Pick<CmvConfig, 'trim.threshold'>): Partial<TrimOptions> {
  return {
    threshold: positiveInt(flags.threshold, '--threshold') ?? config?.['trim.threshold'],
    budget: positiveInt(flags.budget, '--budget'),
    keepHistory: flags.keepHistory,
    stripUserImages: flags.stripUserImages,
  };
}

/** The model to price calls as: --model, else the config's `model`, else the log's own. */
export function modelOf(flag: string | undefined, config: Pick<CmvConfig, 'model'>): string | undefined {
  return flag ?? config.model ?? undefined;
}
