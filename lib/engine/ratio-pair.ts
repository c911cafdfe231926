// Two budgets' usage ratios written side by side, so that a reader can see which is lower.

/** The most decimals a pair of usage percentages gets to tell the two apart (0.001%). */
export const MAX_PAIR_DECIMALS = 3;

/**
 * Two usage ratios as percentages, for one sentence or one table row that weighs them.
 * `level`: null when the figures shown differ, else how the two are level: `"rounded"` when
 * they differ only beyond {@link MAX_PAIR_DECIMALS} decimals, `"exact"` when they are equal.
 */
export type RatioPair = {
  higher: string;
  lower: string;
  level: "rounded" | "exact" | null;
};

/** A usage ratio as a percentage with `decimals` decimals ("no share" for null). */
function formatPercentTo(ratio: number | null, decimals: number): string {
  if (ratio === null) return "no share";
  return decimals === 0 ? `${Math.round(ratio * 100)}%` : `${(ratio * 100).toFixed(decimals)}%`;
}

/**
 * Two usage ratios as whole percentages, or, when those would read the same, with as many
 * decimals (both alike, at most {@link MAX_PAIR_DECIMALS}) as tell them apart. Null reads
 * "no share". When even that does not tell them apart, both stay whole and `level` says why.
 *
 * @example
 * formatRatioPair(0.92, 1.3) // { higher: "92%", lower: "130%", level: null }
 * formatRatioPair(1.02396, 1.02403) // { higher: "102.396%", lower: "102.403%", level: null }
 * formatRatioPair(0, 0) // { higher: "0%", lower: "0%", level: "exact" }
 */
export function formatRatioPair(higher: number | null, lower: number | null): RatioPair {
  if (higher === null || lower === null) {
    return { higher: formatPercentTo(higher, 0), lower: formatPercentTo(lower, 0), level: null };
  }
  for (let decimals = 0; decimals <= MAX_PAIR_DECIMALS; decimals += 1) {
    const pair = {
      higher: formatPercentTo(higher, decimals),
      lower: formatPercentTo(lower, decimals),
    };
    if (pair.higher !== pair.lower) return { ...pair, level: null };
  }
  return {
    higher: formatPercentTo(higher, 0),
    lower: formatPercentTo(lower, 0),
    level: higher === lower ? "exact" : "rounded",
  };
}
