import { useId } from "react";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartLegend, type LegendEntry } from "@/components/charts/chart-legend";
import { OKABE_ITO } from "@/components/charts/palette";
import { formatDate, formatGpuHours, formatInteger } from "@/lib/format";
import type { PeriodSeries } from "@/lib/reports/review-series";
import type { ReviewRow } from "@/lib/reports/review-table";
import { displayName, Patterns } from "./chart-patterns";

const ALLOCATED_OPACITY = 0.55;

/** The entitled chart's key, drawn as its series are: a solid area, a hatched one, a dashed line. */
const ENTITLED_LEGEND: LegendEntry[] = [
  {
    label: "received, allocated",
    colour: OKABE_ITO.blue,
    mark: "square",
    opacity: ALLOCATED_OPACITY,
  },
  { label: "received, unallocated", colour: OKABE_ITO.orange, mark: "hatch" },
  { label: "entitled (capped by demand)", colour: OKABE_ITO.black, mark: "dashed-line" },
];

/** Entitled vs received GPU-hours per day (or week) for one branch of the tree. */
export function EntitledChart({ branch, series }: { branch: ReviewRow; series: PeriodSeries }) {
  const prefix = useId().replace(/:/g, "");
  const values = series.byNode[branch.id];
  // A bucket with no roll-up is a gap, not a zero: nothing was recorded then.
  const data = series.bucketStartSec.map((sec, index) => {
    const valueOf = (list: number[] | undefined) =>
      series.isRecorded[index] ? (list?.[index] ?? 0) : null;
    return {
      label: series.bucketSec > 86_400 ? `wk ${formatDate(sec)}` : formatDate(sec),
      entitled: valueOf(values?.entitled),
      allocated: valueOf(values?.allocated),
      unallocated: valueOf(values?.unallocated),
    };
  });
  const per = series.bucketSec > 86_400 ? "week" : "day";
  return (
    <figure className="chart-card">
      <figcaption className="chart-head">
        <h3>
          Entitled vs received per {per}: {displayName(branch)}
        </h3>
        <span className="muted">GPU-hours; received is allocated plus unallocated time</span>
      </figcaption>
      <ChartLegend entries={ENTITLED_LEGEND} />
      <div
        className="chart-box"
        role="img"
        aria-label={`GPU-hours per ${per} for ${displayName(branch)}: entitled as a dashed line, received allocated and unallocated as stacked areas`}
      >
        <ResponsiveContainer width="100%" height={280}>
          <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
            <Patterns prefix={prefix} colours={[OKABE_ITO.orange]} />
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={12} />
            <YAxis
              tick={{ fontSize: 11 }}
              width={64}
              tickFormatter={(value: number) => formatInteger(value)}
            />
            <Tooltip
              formatter={(value) =>
                value === null ? "not recorded" : formatGpuHours(Number(value))
              }
            />
            <Area
              type="stepAfter"
              dataKey="allocated"
              name="received, allocated"
              stackId="received"
              stroke={OKABE_ITO.blue}
              fill={OKABE_ITO.blue}
              fillOpacity={ALLOCATED_OPACITY}
              isAnimationActive={false}
            />
            <Area
              type="stepAfter"
              dataKey="unallocated"
              name="received, unallocated"
              stackId="received"
              stroke={OKABE_ITO.orange}
              fill={`url(#${prefix}-hatch-0)`}
              fillOpacity={1}
              isAnimationActive={false}
            />
            <Line
              type="stepAfter"
              dataKey="entitled"
              name="entitled (capped by demand)"
              stroke={OKABE_ITO.black}
              strokeWidth={2}
              strokeDasharray="6 3"
              dot={false}
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
