"use client";

import { useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartLegend } from "@/components/charts/chart-legend";
import { SCHEDULER_COLOURS } from "@/components/charts/palette";
import { WAIT_BUCKETS, type SimulationSummary } from "@/lib/simulations/summary";

/**
 * Distribution of queue waits for one job class, both schedulers side by side. The buckets are
 * rows, shortest wait on top: their names read in full at phone width, where seven of them side
 * by side under columns ran together.
 */
export function WaitChart({ summary }: { summary: SimulationSummary }) {
  const names = Object.keys(summary.schedulers);
  const classes = [
    ...new Set(Object.values(summary.schedulers).flatMap((s) => Object.keys(s.waitHistogram))),
  ].sort();
  const [jobClass, setJobClass] = useState(classes.includes("training") ? "training" : classes[0]);
  const rows = WAIT_BUCKETS.map((bucket, i) => ({
    bucket: bucket.label,
    ...Object.fromEntries(
      names.map((name) => {
        const counts = summary.schedulers[name]?.waitHistogram[jobClass ?? ""] ?? [];
        const total = counts.reduce((a, b) => a + b, 0);
        return [name, total > 0 ? Math.round(((counts[i] ?? 0) / total) * 1000) / 10 : 0];
      }),
    ),
  }));
  return (
    <div className="chart-card">
      <div className="chart-head">
        <h3>Wait before first start</h3>
        <label>
          Job class{" "}
          <select value={jobClass} onChange={(event) => setJobClass(event.target.value)}>
            {classes.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ChartLegend
        entries={names.map((name) => ({
          label: name,
          colour: SCHEDULER_COLOURS[name] ?? "#888",
          mark: "square",
        }))}
      />
      <div
        className="chart-box"
        role="img"
        aria-label={`Share of ${jobClass} jobs by wait, per scheduler`}
      >
        <ResponsiveContainer width="100%" height={320}>
          <BarChart
            data={rows}
            layout="vertical"
            margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
          >
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" unit="%" tick={{ fontSize: 12 }} />
            <YAxis
              type="category"
              dataKey="bucket"
              tick={{ fontSize: 12 }}
              width={96}
              interval={0}
            />
            <Tooltip formatter={(value) => `${String(value)}% of jobs`} />
            {names.map((name) => (
              <Bar key={name} dataKey={name} fill={SCHEDULER_COLOURS[name] ?? "#888"} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
