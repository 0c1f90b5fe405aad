/**
 * Seeded randomness for the reliability and fuzz suites: a run with the same seed makes the same
 * choices, so a failure can be replayed. `TEST_SEED` overrides the suites' fixed seeds.
 */

/** mulberry32: small, fast and good enough to pick test cases. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A number from a string (FNV-1a), to derive a stable choice from what a request is. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function testSeed(fallback: number): number {
  const fromEnv = Number(process.env.TEST_SEED);
  return Number.isInteger(fromEnv) ? fromEnv : fallback;
}

export interface Pick {
  (): number;
  int(max: number): number;
  one<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function picker(seed: number): Pick {
  const next = seededRandom(seed);
  return Object.assign(() => next(), {
    int: (max: number) => Math.floor(next() * max),
    one: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  });
}
