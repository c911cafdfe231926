"use client";

import { useMemo, useState } from "react";
import type { ClusterUsageRatios, PeriodSeries } from "@/lib/reports/review-series";
import type { ReviewRow } from "@/lib/reports/review-table";
import { displayName } from "./chart-patterns";
import { EntitledChart } from "./entitled-chart";
import { FulfilmentChart } from "./fulfilment-chart";
import { UsageRatioChart } from "./usage-ratio-chart";

/**
 * The review's charts for one branch: entitled vs received per day, fulfilment of its
 * children against the 95% line, and their usage ratio over the lookback window per cluster.
 */
export function ReviewCharts({
  rows,
  series,
  usageRatios,
  initialBranchId,
}: {
  rows: ReviewRow[];
  series: PeriodSeries;
  usageRatios: ClusterUsageRatios[];
  initialBranchId: string;
}) {
  const branches = useMemo(() => rows.filter((row) => !row.isLeaf), [rows]);
  const [branchId, setBranchId] = useState(initialBranchId);
  const branch = branches.find((row) => row.id === branchId) ?? branches[0];
  const children = useMemo(
    () => rows.filter((row) => branch && row.parentId === branch.id),
    [rows, branch],
  );
  if (!branch) return null;
  return (
    <section className="review-charts" aria-labelledby="charts-heading">
      <div className="chart-toolbar">
        <h2 id="charts-heading">Charts</h2>
        <label>
          Branch{" "}
          <select value={branch.id} onChange={(event) => setBranchId(event.target.value)}>
            {branches.map((row) => (
              <option key={row.id} value={row.id}>
                {displayName(row)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <EntitledChart branch={branch} series={series} />
      <div className="chart-pair">
        <FulfilmentChart branch={branch} budgets={children} />
        <UsageRatioChart branch={branch} budgets={children} usageRatios={usageRatios} />
      </div>
    </section>
  );
}
