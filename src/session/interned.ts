// Values that repeat on every line of a log (its kind, session id, working directory, version,
// branch, model): one string per distinct value instead of one per line, so the index of a long
// log stays small. Bounded, since a log has only a handful of each.

const INTERNED = new Map<string, string>();
const MAX_INTERNED = 4096;

/** The one shared copy of a repeated value (the value itself once the table is full). */
export function shared(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const known = INTERNED.get(value);
  if (known !== undefined) return known;
  if (INTERNED.size < MAX_INTERNED) INTERNED.set(value, value);
  return value;
}
