"use client";

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
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
import { ENTITLED_COLOUR, WHAT_IF_COLOURS } from "@/components/charts/palette";
import type { WhatIfSummary } from "@/lib/what-if/summary";

/**
 * Received GPU-hours per budget in each column, with the entitlement before (◆: the control's,
 * else as it happened) and with the draft (▲).
 */
export function WhatIfChart({ summary }: { summary: WhatIfSummary }) {
  const hasHappened = summary.happenedSource === "roll-ups";
  const hasControl = summary.current !== null;
  const rows = summary.rows
    .filter((row) => !row.isTotal)
    .map((row) => {
      const before = row.current ?? row.happened;
      return {
        name: row.label,
        happened: Math.round(row.happened?.receivedGpuHours ?? 0),
        current: Math.round(row.current?.receivedGpuHours ?? 0),
        draft: Math.round(row.draft.receivedGpuHours),
        entitledNow: Math.round(before?.entitledGpuHours ?? 0),
        entitledDraft: Math.round(row.draft.entitledGpuHours),
      };
    });
  return (
    <div className="chart-card">
      <div className="chart-head">
        <h3>Received vs entitled GPU-hours per budget</h3>
        <span className="muted">Entitled: share of capacity each hour, capped by demand</span>
      </div>
      <div
        className="chart-box"
        role="img"
        aria-label="Received GPU-hours per budget in each column of the table, with the entitlements before and with the draft"
      >
        <ResponsiveContainer width="100%" height={320}>
          <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 48, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis {...budgetXAxisProps(-30)} />
            <YAxis {...GPU_HOURS_Y_AXIS_PROPS} />
            <Tooltip formatter={formatGpuHoursTooltip} />
            <Legend verticalAlign="top" height={28} />
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
              fill="#000000"
              shape="triangle"
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
