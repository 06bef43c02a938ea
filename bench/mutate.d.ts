// Types of bench/mutate.js, the mutations and the seeded PRNG the fuzz bench and the tests share.

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence on every machine. */
export function seededRandom(seed: number): () => number;
/** Each mutation: a name and a function from a line's bytes to new bytes. */
export const MUTATIONS: ReadonlyArray<readonly [string, (random: () => number, bytes: Buffer) => Buffer]>;
/** One mutated copy of `bytes`: the mutation's name and the new bytes. */
export function mutateLine(random: () => number, bytes: Buffer): { name: string; bytes: Buffer };
