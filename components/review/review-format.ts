// Shared by the review's table, headline and charts.
import { formatFulfilmentPercent, formatPercent } from "@/lib/format";
import type { ClusterUsageRatios } from "@/lib/reports/review-series";

/** A funded budget is served when it received at least this part of its entitlement. */
export const FULFILMENT_TARGET = 0.95;

/**
 * Flagged as under-served: fulfilment below the target and less received than entitled. A row
 * that received at least its entitlement is never flagged, even a branch whose leaves' surplus
 * and shortfall leave its fulfilment under the target.
 */
export function isUnderServed(row: {
  fulfilment: number | null;
  receivedGpuHours: number;
  entitledGpuHours: number;
}): boolean {
  return (
    row.fulfilment !== null &&
    row.fulfilment < FULFILMENT_TARGET &&
    row.receivedGpuHours < row.entitledGpuHours
  );
}

/** A bar of the fulfilment chart: its length in percent, and the figure as the table prints it. */
export type FulfilmentBar = { name: string; percent: number; text: string; isShort: boolean };

/**
 * The fulfilment chart's bars: the budgets with demand, each labelled with its fulfilment as the
 * review's table prints it, so the chart never reads "98%" beside the table's "98.0%".
 *
 * @example toFulfilmentBars([{ name: "lm", fulfilment: 0.98, ... }])[0].text // "98.0%"
 */
export function toFulfilmentBars(
  budgets: readonly {
    name: string;
    fulfilment: number | null;
    receivedGpuHours: number;
    entitledGpuHours: number;
  }[],
): FulfilmentBar[] {
  return budgets.flatMap((row) => {
    if (row.fulfilment === null) return [];
    const text = formatFulfilmentPercent(row.fulfilment);
    // The figure beside the name: labels at the bars' ends would collide with the 95% line.
    const name = `${row.name}  ${text}`;
    return [{ name, percent: row.fulfilment * 100, text, isShort: isUnderServed(row) }];
  });
}

/** A budget's bars in the usage-of-share chart: percent of its share per cluster, and labels. */
export type UsageBars = {
  name: string;
  percentByCluster: Record<string, number>;
  textByCluster: Record<string, string>;
};

/** The label of a budget's bar on a cluster where it has no share. */
export const NO_SHARE = "—";

/**
 * The usage-of-share chart's bars, one per budget and cluster, labelled in the page's percent
 * format. A budget with no ratio on a cluster (no share there) draws an empty bar labelled
 * {@link NO_SHARE}, as the review's table writes a missing figure.
 *
 * @example toUsageBars([{ id: "a", name: "lm" }], [{ cluster: "b300", ratios: { a: 0.5 } }])[0].textByCluster // { b300: "50.0%" }
 */
export function toUsageBars(
  budgets: readonly { id: string; name: string }[],
  usageRatios: readonly Pick<ClusterUsageRatios, "cluster" | "ratios">[],
): UsageBars[] {
  return budgets.map((row) => {
    const percentByCluster: Record<string, number> = {};
    const textByCluster: Record<string, string> = {};
    for (const { cluster, ratios } of usageRatios) {
      const ratio = ratios[row.id] ?? null;
      percentByCluster[cluster] = (ratio ?? 0) * 100;
      textByCluster[cluster] = ratio === null ? NO_SHARE : formatPercent(ratio);
    }
    return { name: row.name, percentByCluster, textByCluster };
  });
}
