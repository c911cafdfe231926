import { useId } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartLegend } from "@/components/charts/chart-legend";
import { OKABE_ITO } from "@/components/charts/palette";
import { formatDateTime } from "@/lib/format";
import type { ClusterUsageRatios } from "@/lib/reports/review-series";
import type { ReviewRow } from "@/lib/reports/review-table";
import {
  CLUSTER_COLOURS,
  CLUSTER_PATTERNS,
  displayName,
  fillOf,
  PATTERN_MARKS,
  Patterns,
  ROW_PX,
} from "./chart-patterns";
import { NO_SHARE, toUsageBars, type UsageBars } from "./review-format";
import {
  cappedAxisTicks,
  capUsageBars,
  listUsagePercents,
  OFF_SCALE_MARK,
  usageAxisCapPercent,
} from "./usage-axis";

/** Each child budget's use of its share over the lookback window, one bar per cluster. */
export function UsageRatioChart({
  branch,
  budgets,
  usageRatios,
}: {
  branch: ReviewRow;
  budgets: ReviewRow[];
  usageRatios: ClusterUsageRatios[];
}) {
  const prefix = useId().replace(/:/g, "");
  const bars = toUsageBars(budgets, usageRatios);
  const capPercent = usageAxisCapPercent(listUsagePercents(bars));
  const data = capUsageBars(bars, capPercent);
  const first = usageRatios[0];
  const windowDays = first ? Math.round(first.lookbackSec / 86_400) : 7;
  return (
    <figure className="chart-card">
      <figcaption className="chart-head">
        <h3>Usage of share below {displayName(branch)}</h3>
        <span className="muted">
          Allocated use over the last {windowDays} days as a part of the share, at{" "}
          {first ? formatDateTime(first.atSec) : "the period's end"}: the queue ranks lower use
          first.
          {capPercent === null
            ? null
            : ` The axis ends at ${capPercent}%: a bar past it is cut there, its figure marked ${OFF_SCALE_MARK}.`}
        </span>
      </figcaption>
      {usageRatios.length === 0 || data.length === 0 ? (
        <p className="muted">No roll-ups in the lookback window.</p>
      ) : (
        <>
          <ChartLegend
            entries={usageRatios.map(({ cluster }, index) => ({
              label: cluster,
              colour: CLUSTER_COLOURS[index % 4]!,
              mark: PATTERN_MARKS[CLUSTER_PATTERNS[index % 4]!],
            }))}
          />
          <div
            className="chart-box"
            role="img"
            aria-label={`Usage of share of each budget below ${displayName(branch)} per cluster; 100% is its share`}
          >
            <ResponsiveContainer
              width="100%"
              height={60 + data.length * ROW_PX * Math.max(1, usageRatios.length * 0.75)}
            >
              <BarChart
                data={data}
                layout="vertical"
                // Room right of a cut bar for its figure and mark.
                margin={{ top: 16, right: capPercent === null ? 48 : 64, bottom: 4, left: 8 }}
              >
                <Patterns prefix={prefix} colours={CLUSTER_COLOURS} />
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis
                  type="number"
                  unit="%"
                  tick={{ fontSize: 11 }}
                  domain={capPercent === null ? undefined : [0, capPercent]}
                  ticks={capPercent === null ? undefined : cappedAxisTicks(capPercent)}
                />
                <YAxis
                  type="category"
                  dataKey="name"
                  width={130}
                  tick={{ fontSize: 11 }}
                  interval={0}
                />
                <Tooltip
                  formatter={(_value, name, item) => {
                    const text = (item.payload as UsageBars).textByCluster[String(name)];
                    return text === NO_SHARE ? "no share here" : `${text} of share`;
                  }}
                />
                <ReferenceLine
                  x={100}
                  stroke={OKABE_ITO.black}
                  strokeDasharray="4 3"
                  label={{ value: "share", position: "top", fontSize: 11 }}
                />
                {usageRatios.map((cluster, index) => (
                  <Bar
                    key={cluster.cluster}
                    // A path into UsageBars: cluster names are letters, digits, '-' and '_'.
                    dataKey={`percentByCluster.${cluster.cluster}`}
                    name={cluster.cluster}
                    fill={fillOf(prefix, CLUSTER_PATTERNS[index % 4]!, index % 4)}
                    stroke={CLUSTER_COLOURS[index % 4]}
                    isAnimationActive={false}
                  >
                    <LabelList
                      dataKey={`labelByCluster.${cluster.cluster}`}
                      position="right"
                      fontSize={10}
                      fill="#333"
                    />
                  </Bar>
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        </>
      )}
    </figure>
  );
}
