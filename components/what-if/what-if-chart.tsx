"use client";

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import {
  budgetXAxisProps,
  formatGpuHoursTooltip,
  GPU_HOURS_Y_AXIS_PROPS,
} from "@/components/charts/gpu-hours-axes";
import { ChartLegend, type LegendEntry } from "@/components/charts/chart-legend";
import { ENTITLED_COLOUR, WHAT_IF_COLOURS } from "@/components/charts/palette";
import { selectChartBars } from "@/lib/simulations/what-if/chart-rows";
import type { WhatIfSummary } from "@/lib/simulations/what-if/summary";

const ENTITLED_DRAFT_COLOUR = "#000000";

/** The chart's key: the columns it draws, then the entitlements' markers. */
function legendEntries(hasHappened: boolean, hasControl: boolean): LegendEntry[] {
  const entries: LegendEntry[] = [];
  if (hasHappened) {
    entries.push({
      label: "received, as it happened",
      colour: WHAT_IF_COLOURS.happened,
      mark: "square",
    });
  }
  if (hasControl) {
    entries.push({
      label: "received, current split",
      colour: WHAT_IF_COLOURS.current,
      mark: "square",
    });
  }
  entries.push({ label: "received, draft", colour: WHAT_IF_COLOURS.draft, mark: "square" });
  if (hasControl || hasHappened) {
    entries.push({
      label: hasControl ? "entitled, current split" : "entitled, as it happened",
      colour: ENTITLED_COLOUR,
      mark: "diamond",
    });
  }
  entries.push({ label: "entitled, draft", colour: ENTITLED_DRAFT_COLOUR, mark: "triangle" });
  return entries;
}

/**
 * Received GPU-hours per child of the branch (what the draft reweights) in each column, with
 * the entitlement before (◆: the control's, else as it happened) and with the draft (▲). With
 * many children, the largest changes and one bar for the others (selectChartBars).
 */
export function WhatIfChart({ summary }: { summary: WhatIfSummary }) {
  const hasHappened = summary.happenedSource === "roll-ups";
  const hasControl = summary.current !== null;
  const rows = selectChartBars(summary.rows, hasControl);
  const others = rows.find((row) => row.budgets > 1);
  return (
    <div className="chart-card">
      <div className="chart-head">
        <h3>Received vs entitled GPU-hours per budget of {summary.nodeName}</h3>
        <span className="muted">
          Entitled: share of capacity each hour, capped by demand.
          {others
            ? ` The ${rows.length - 1} largest changes; ${others.name} in one bar.`
            : " Budgets below them are in the table."}
        </span>
      </div>
      <ChartLegend entries={legendEntries(hasHappened, hasControl)} />
      <div
        className="chart-box"
        role="img"
        aria-label={`Received GPU-hours per budget of ${summary.nodeName} in each column of the table, with the entitlements before and with the draft`}
      >
        <ResponsiveContainer width="100%" height={320}>
          <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 48, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis {...budgetXAxisProps(-30)} />
            <YAxis {...GPU_HOURS_Y_AXIS_PROPS} />
            <Tooltip formatter={formatGpuHoursTooltip} />
            {hasHappened ? (
              <Bar
                dataKey="happened"
                name="received, as it happened"
                fill={WHAT_IF_COLOURS.happened}
              />
            ) : null}
            {hasControl ? (
              <Bar
                dataKey="current"
                name="received, current split"
                fill={WHAT_IF_COLOURS.current}
              />
            ) : null}
            <Bar dataKey="draft" name="received, draft" fill={WHAT_IF_COLOURS.draft} />
            {hasControl || hasHappened ? (
              <Scatter
                dataKey="entitledNow"
                name={hasControl ? "entitled, current split" : "entitled, as it happened"}
                fill={ENTITLED_COLOUR}
                shape="diamond"
              />
            ) : null}
            <Scatter
              dataKey="entitledDraft"
              name="entitled, draft"
              fill={ENTITLED_DRAFT_COLOUR}
              shape="triangle"
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
