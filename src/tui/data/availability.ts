// What a pane knows about a piece of data it shows: still loading, there, not available (its
// module is not installed, or it does not apply to this selection), or failed.

export type Availability<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'unavailable'; reason: string } | { state: 'error'; message: string };

export const LOADING = { state: 'loading' } as const;

export function ready<T>(value: T): Availability<T> {
  return { state: 'ready', value };
}

export function unavailable<T>(reason: string): Availability<T> {
  return { state: 'unavailable', reason };
}

/** True for the error a dynamic import() gives when the module is not there. */
export function isMissingModule(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /Cannot find module|Failed to load url/.test(String((error as Error)?.message));
}

/** Runs a loader that imports its module dynamically: a missing module becomes "not available". */
export async function settle<T>(what: string, load: () => Promise<T>): Promise<Availability<T>> {
  try {
    return ready(await load());
  } catch (error) {
    if (isMissingModule(error)) return unavailable(`${what} is not available in this build of cmv`);
    return { state: 'error', message: (error as Error).message };
  }
}
