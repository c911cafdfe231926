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
