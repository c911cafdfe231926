"use client";

import { useId, useMemo, useState } from "react";
import {
  Area,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ComposedChart,
  LabelList,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartLegend, type LegendEntry } from "@/components/charts/chart-legend";
import { OKABE_ITO } from "@/components/charts/palette";
import { formatDate, formatDateTime, formatGpuHours, formatInteger } from "@/lib/format";
import type { ClusterUsageRatios, PeriodSeries } from "@/lib/reports/review-series";
import type { ReviewRow } from "@/lib/reports/review-table";
import {
  FULFILMENT_TARGET,
  NO_SHARE,
  toFulfilmentBars,
  toUsageBars,
  type FulfilmentBar,
  type UsageBars,
} from "./review-format";
import {
  cappedAxisTicks,
  capUsageBars,
  listUsagePercents,
  OFF_SCALE_MARK,
  usageAxisCapPercent,
} from "./usage-axis";

/** One colour and one fill pattern per cluster, so bars differ without colour too. */
const CLUSTER_COLOURS = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.skyBlue,
];
const CLUSTER_PATTERNS = ["solid", "hatch", "dots", "cross"] as const;
/** The legend's symbol of each pattern. */
const PATTERN_MARKS = { solid: "square", hatch: "hatch", dots: "dots", cross: "cross" } as const;
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
const ROW_PX = 26;

const displayName = (row: ReviewRow) => (row.path === "" ? `${row.name} (all)` : row.path);

/** Patterns for fills: hatching and dots in a colour, on a pale tint of it. */
function Patterns({ prefix, colours }: { prefix: string; colours: readonly string[] }) {
  return (
    <defs>
      {colours.map((colour, index) => (
        <g key={colour}>
          <pattern
            id={`${prefix}-hatch-${index}`}
            patternUnits="userSpaceOnUse"
            width="6"
            height="6"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" fill={colour} fillOpacity="0.25" />
            <line x1="0" y1="0" x2="0" y2="6" stroke={colour} strokeWidth="3" />
          </pattern>
          <pattern
            id={`${prefix}-dots-${index}`}
            patternUnits="userSpaceOnUse"
            width="5"
            height="5"
          >
            <rect width="5" height="5" fill={colour} fillOpacity="0.25" />
            <circle cx="2.5" cy="2.5" r="1.6" fill={colour} />
          </pattern>
          <pattern
            id={`${prefix}-cross-${index}`}
            patternUnits="userSpaceOnUse"
            width="6"
            height="6"
          >
            <rect width="6" height="6" fill={colour} fillOpacity="0.25" />
            <path d="M0 0L6 6M6 0L0 6" stroke={colour} strokeWidth="1.4" />
          </pattern>
        </g>
      ))}
    </defs>
  );
}

function fillOf(prefix: string, pattern: (typeof CLUSTER_PATTERNS)[number], index: number) {
  return pattern === "solid" ? CLUSTER_COLOURS[index]! : `url(#${prefix}-${pattern}-${index})`;
}

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

function EntitledChart({ branch, series }: { branch: ReviewRow; series: PeriodSeries }) {
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

function FulfilmentChart({ branch, budgets }: { branch: ReviewRow; budgets: ReviewRow[] }) {
  const prefix = useId().replace(/:/g, "");
  const data = toFulfilmentBars(budgets);
  return (
    <figure className="chart-card">
      <figcaption className="chart-head">
        <h3>Fulfilment below {displayName(branch)}</h3>
        <span className="muted">
          Solid: at least 95%; hatched: below it. Budgets without demand are left out.
        </span>
      </figcaption>
      {data.length === 0 ? (
        <p className="muted">No budget below this branch was entitled to anything.</p>
      ) : (
        <div
          className="chart-box"
          role="img"
          aria-label={`Fulfilment of each budget below ${displayName(branch)}, against the 95% line`}
        >
          <ResponsiveContainer width="100%" height={48 + data.length * ROW_PX}>
            <BarChart
              data={data}
              layout="vertical"
              margin={{ top: 16, right: 48, bottom: 4, left: 8 }}
            >
              <Patterns prefix={prefix} colours={[OKABE_ITO.vermillion]} />
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
              <YAxis
                type="category"
                dataKey="name"
                width={180}
                tick={{ fontSize: 11 }}
                interval={0}
              />
              <Tooltip formatter={(_value, _name, item) => (item.payload as FulfilmentBar).text} />
              <ReferenceLine
                x={FULFILMENT_TARGET * 100}
                stroke={OKABE_ITO.black}
                strokeDasharray="4 3"
                label={{ value: "95%", position: "top", fontSize: 11 }}
              />
              <Bar dataKey="percent" name="fulfilment" isAnimationActive={false}>
                {data.map((entry) => (
                  <Cell
                    key={entry.name}
                    fill={entry.isShort ? `url(#${prefix}-hatch-0)` : OKABE_ITO.bluishGreen}
                    stroke={entry.isShort ? OKABE_ITO.vermillion : OKABE_ITO.bluishGreen}
                  />
                ))}
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}

function UsageRatioChart({
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
