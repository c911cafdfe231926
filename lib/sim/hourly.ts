/** Seconds in one accounting hour. */
export const HOUR_SEC = 3600;

/**
 * Adds `rate * overlap` to each hourly bin an interval [startSec, endSec) touches, so that a bin
 * holds the rate's integral over that hour (e.g. GPU-seconds for a rate in GPUs).
 *
 * @example addToHours(bins, 1800, 5400, 8) // bins[0] += 14_400, bins[1] += 14_400
 */
export function addToHours(
  bins: Float64Array,
  startSec: number,
  endSec: number,
  rate: number,
): void {
  if (endSec <= startSec || rate === 0) return;
  const first = Math.floor(startSec / HOUR_SEC);
  const last = Math.min(bins.length - 1, Math.ceil(endSec / HOUR_SEC) - 1);
  for (let h = first; h <= last; h++) {
    const from = Math.max(startSec, h * HOUR_SEC);
    const to = Math.min(endSec, (h + 1) * HOUR_SEC);
    if (to > from) bins[h] = (bins[h] ?? 0) + rate * (to - from);
  }
}

/** Hourly bins filled interval by interval, as {@link addToHours} fills them. */
export type HourBins = {
  /** Adds `rate * overlap` to each hour [startSec, endSec) touches (see addToHours). */
  add(startSec: number, endSec: number, rate: number): void;
  /** The bins; call once, after the last `add`. */
  finish(): Float64Array;
};

/**
 * Bins of `hours` hours that give exactly what {@link addToHours} gives for the same calls, in
 * time independent of the intervals' lengths: while every time and rate is a whole number (and
 * the sums stay below 2^53), sums are exact in any order, so whole hours go to a difference array
 * summed once at the end. The first other call folds that array in and goes on with addToHours.
 *
 * @example
 * const bins = createHourBins(3);
 * bins.add(1800, 9000, 8);
 * bins.finish(); // Float64Array [14_400, 28_800, 14_400]
 */
export function createHourBins(hours: number): HourBins {
  const bins = new Float64Array(hours);
  // Whole-hour rates by difference (rate at hour h = sum of steps[0..h]); null once folded in.
  let steps: Float64Array | null = new Float64Array(hours + 1);
  let magnitude = 0;

  function foldSteps(): void {
    if (!steps) return;
    let rate = 0;
    for (let h = 0; h < hours; h++) {
      rate += steps[h] ?? 0;
      if (rate !== 0) bins[h] = (bins[h] ?? 0) + rate;
    }
    steps = null;
  }

  function addToHour(h: number, startSec: number, endSec: number, rate: number): void {
    if (h < 0 || h >= hours) return;
    const from = Math.max(startSec, h * HOUR_SEC);
    const to = Math.min(endSec, (h + 1) * HOUR_SEC);
    if (to > from) bins[h] = (bins[h] ?? 0) + rate * (to - from);
  }

  return {
    add(startSec, endSec, rate) {
      if (endSec <= startSec || rate === 0) return;
      if (steps) {
        magnitude += Math.abs(rate) * (endSec - startSec);
        const isWhole =
          Number.isInteger(startSec) && Number.isInteger(endSec) && Number.isInteger(rate);
        if (!isWhole || magnitude > Number.MAX_SAFE_INTEGER) foldSteps();
      }
      if (!steps) {
        addToHours(bins, startSec, endSec, rate);
        return;
      }
      const first = Math.floor(startSec / HOUR_SEC);
      const last = Math.min(hours - 1, Math.ceil(endSec / HOUR_SEC) - 1);
      if (last < first) return;
      addToHour(first, startSec, endSec, rate);
      if (last === first) return;
      addToHour(last, startSec, endSec, rate);
      // Hours strictly between the first and the last are wholly covered.
      const from = Math.max(first + 1, 0);
      if (from <= last - 1) {
        steps[from] = (steps[from] ?? 0) + rate * HOUR_SEC;
        steps[last] = (steps[last] ?? 0) - rate * HOUR_SEC;
      }
    },
    finish() {
      foldSteps();
      return bins;
    },
  };
}

/** Nearest-rank percentile (p in [0, 1]) of numbers; 0 for none. Sorts a copy. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1] ?? 0;
}

/** Rounds to `digits` decimals, as reports print ratios and hours (keeps -0 out). */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor + 0;
}

/** Below 1 by less than this, a fulfilment is 1: sums of hours in another order, not a shortfall. */
const FULL_EPSILON = 1e-9;

/**
 * A fulfilment rounded to `digits` decimals (reports, the review's CSV), except that one below 1
 * never becomes 1: the pages show 0.99996 as "99.9%", and a lab short of its due by a little
 * must not read as every budget served in full. Float noise under 1e-9 is not short.
 *
 * @example roundFulfilment(0.999987) // 0.9999
 * @example roundFulfilment(0.9999999999999) // 1
 */
export function roundFulfilment(value: number, digits = 4): number {
  const rounded = roundTo(value, digits);
  return value < 1 - FULL_EPSILON && rounded >= 1 ? 1 - 10 ** -digits : rounded;
}
