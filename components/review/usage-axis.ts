// The usage-of-share chart's axis: capped so that one budget far over its share does not squeeze
// every other bar and the 100% line into a sliver of the width.
import { NO_SHARE, type UsageBars } from "./review-format";

/** The axis always reaches at least this far (three times the share) before it is capped. */
const MIN_CAP_PERCENT = 300;
/** Follows the label of a bar cut at the axis end; its text stays the real figure. */
export const OFF_SCALE_MARK = "»";

/** A usage bar ready to draw: lengths within the axis, and a label per cluster. */
export type DrawnUsageBars = UsageBars & { labelByCluster: Record<string, string> };

/**
 * Where to cap the usage axis, percent, or null when every bar fits: at twice the median bar
 * rounded up to a hundred, and never below {@link MIN_CAP_PERCENT}, so typical bars keep most of
 * the width and only outliers run past.
 *
 * @example usageAxisCapPercent([20, 50, 80, 110, 1297.5]) // 300
 */
export function usageAxisCapPercent(percents: readonly number[]): number | null {
  if (percents.length === 0) return null;
  const sorted = [...percents].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const capPercent = Math.max(MIN_CAP_PERCENT, Math.ceil((2 * median) / 100) * 100);
  return sorted.at(-1)! > capPercent ? capPercent : null;
}

/** The percents the bars draw: each cluster's bar of each budget with a share there. */
export function listUsagePercents(bars: readonly UsageBars[]): number[] {
  return bars.flatMap((bar) =>
    Object.entries(bar.percentByCluster)
      .filter(([cluster]) => bar.textByCluster[cluster] !== NO_SHARE)
      .map(([, percent]) => percent),
  );
}

/**
 * The bars cut at `capPercent` (null: none): a bar past it ends at the cap, and its label is its
 * real figure followed by {@link OFF_SCALE_MARK}.
 *
 * @example capUsageBars(bars, 300)[0].percentByCluster.b300 // 300 for a bar of 1297.5%
 */
export function capUsageBars(
  bars: readonly UsageBars[],
  capPercent: number | null,
): DrawnUsageBars[] {
  return bars.map((bar) => {
    const percentByCluster = { ...bar.percentByCluster };
    const labelByCluster = { ...bar.textByCluster };
    for (const [cluster, percent] of Object.entries(bar.percentByCluster)) {
      if (capPercent === null || percent <= capPercent) continue;
      percentByCluster[cluster] = capPercent;
      // A no-break space: recharts wraps a label at spaces, and the mark belongs to its figure.
      labelByCluster[cluster] = `${bar.textByCluster[cluster]}\u00a0${OFF_SCALE_MARK}`;
    }
    return { ...bar, percentByCluster, labelByCluster };
  });
}

/**
 * Ticks of a capped axis, from 0 to the cap, which is always the last: every 100% up to 600%,
 * then wider steps (a hundred per 600% of the cap), so that there are at most about seven.
 *
 * @example cappedAxisTicks(700) // [0, 200, 400, 600, 700]
 */
export function cappedAxisTicks(capPercent: number): number[] {
  const stepPercent = 100 * Math.ceil(capPercent / 600);
  const ticks = Array.from(
    { length: Math.floor(capPercent / stepPercent) + 1 },
    (_, i) => i * stepPercent,
  );
  return ticks.at(-1) === capPercent ? ticks : [...ticks, capPercent];
}
