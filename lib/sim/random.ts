/**
 * A seeded pseudo-random generator. The simulator never calls `Math.random`; every source of
 * randomness is one of these, passed in, so the same seed always gives the same run.
 */
export type Random = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** Exponentially distributed with the given mean (same unit as the mean). */
  exponential(mean: number): number;
  /** Log-uniform in [min, max): as many values per decade. */
  logUniform(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
};

/**
 * mulberry32: a 32-bit state generator, fast and good enough for workloads (not for crypto).
 *
 * @example createRandom(7).next() // always the same number for seed 7
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  return {
    next,
    int(min, max) {
      return min + Math.floor(next() * (max - min + 1));
    },
    pick(items) {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error("pick from an empty array");
      return item;
    },
    exponential(mean) {
      return -mean * Math.log(1 - next());
    },
    logUniform(min, max) {
      return Math.exp(Math.log(min) + next() * (Math.log(max) - Math.log(min)));
    },
    chance(p) {
      return next() < p;
    },
  };
}
