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
import { ENTITLED_COLOUR, SCHEDULER_COLOURS } from "@/components/charts/palette";
import type { SimulationSummary } from "@/lib/simulations/summary";

/** Above this many leaf budgets the chart sums them by program (top-level node). */
const MAX_BARS = 20;

type Row = { name: string; entitled: number } & Record<string, number | string>;

/** Received GPU-hours per budget under each scheduler, against the allocation's entitlement. */
export function budgetRows(summary: SimulationSummary): { rows: Row[]; isGrouped: boolean } {
  const names = Object.keys(summary.schedulers);
  const leaves = summary.schedulers[names[0] ?? ""]?.budgets ?? [];
  const isGrouped = leaves.length > MAX_BARS;
  const keyOf = (path: string) => (isGrouped ? (path.split("/")[0] ?? path) : path);
  const byKey = new Map<string, Row>();
  for (const name of names) {
    for (const budget of summary.schedulers[name]?.budgets ?? []) {
      const key = keyOf(budget.path);
      const row = byKey.get(key) ?? ({ name: key, entitled: 0 } as Row);
      row[name] = ((row[name] as number | undefined) ?? 0) + budget.receivedGpuHours;
      if (name === "allocation") row.entitled += budget.entitledGpuHours;
      byKey.set(key, row);
    }
  }
  const rows = [...byKey.values()].map((row) => ({
    ...row,
    entitled: Math.round(row.entitled),
    ...Object.fromEntries(names.map((name) => [name, Math.round(Number(row[name] ?? 0))])),
  }));
  return { rows, isGrouped };
}

/** The chart's key: a bar per scheduler, then the entitlement's diamond. */
function legendEntries(names: readonly string[]): LegendEntry[] {
  return [
    ...names.map((name): LegendEntry => ({
      label: `${name} received`,
      colour: SCHEDULER_COLOURS[name] ?? "#888",
      mark: "square",
    })),
    { label: "entitled (allocation run)", colour: ENTITLED_COLOUR, mark: "diamond" },
  ];
}

export function BudgetChart({ summary }: { summary: SimulationSummary }) {
  const names = Object.keys(summary.schedulers);
  const { rows, isGrouped } = budgetRows(summary);
  return (
    <div className="chart-card">
      <div className="chart-head">
        <h3>GPU-hours per {isGrouped ? "program" : "budget"} vs entitlement</h3>
        <span className="muted">
          Entitled: share of capacity, capped by demand, in the allocation run. Demand counts the
          hours a job waits, so each scheduler is owed its own: the fulfilment figures above use
          each one&apos;s, this chart the allocation run&apos;s.
        </span>
      </div>
      <ChartLegend entries={legendEntries(names)} />
      <div
        className="chart-box"
        role="img"
        aria-label="Received GPU-hours per budget and scheduler, with the entitlement"
      >
        <ResponsiveContainer width="100%" height={300}>
          <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 40, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis {...budgetXAxisProps(-35)} />
            <YAxis {...GPU_HOURS_Y_AXIS_PROPS} />
            <Tooltip formatter={formatGpuHoursTooltip} />
            {names.map((name) => (
              <Bar
                key={name}
                dataKey={name}
                name={`${name} received`}
                fill={SCHEDULER_COLOURS[name] ?? "#888"}
              />
            ))}
            <Scatter
              dataKey="entitled"
              name="entitled (allocation run)"
              fill={ENTITLED_COLOUR}
              shape="diamond"
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
