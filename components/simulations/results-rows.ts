// The measures of a simulation's results table, apart from its markup so they can be tested.
import type { SchedulerSummary, SimulationSummary } from "@/lib/simulations/summary";
import { formatFulfilment, formatInteger, formatShare, formatWait } from "@/lib/format";

/** One measure of the results table. */
export type ResultRow = {
  label: string;
  hint?: string;
  value: (s: SchedulerSummary) => string;
  /** Lower is better (for the "better" mark); undefined: no judgement. */
  better?: "higher" | "lower";
  raw?: (s: SchedulerSummary) => number;
};

/** The rows of the results table: one measure each, a value per scheduler. */
export function listResultRows(summary: SimulationSummary): ResultRow[] {
  const classes = [
    ...new Set(Object.values(summary.schedulers).flatMap((s) => Object.keys(s.classes))),
  ].sort();
  return [
    {
      label: "Utilisation",
      hint: "busy / available GPU-hours",
      value: (s) => formatShare(s.utilisation),
      better: "higher",
      raw: (s) => s.utilisation,
    },
    {
      label: "Fulfilment",
      hint: "received / entitled, capped by demand",
      value: (s) => formatFulfilment(s.fulfilment),
      better: "higher",
      raw: (s) => s.fulfilment ?? NaN,
    },
    {
      // Named as `allot simulate` names it; beside the period figure, never the headline
      // (docs/fulfilment.md). Summaries stored before the field existed have none.
      label: "Hour by hour",
      hint: "the same, hour by hour: no hour makes up for another",
      value: (s) => formatFulfilment(s.hourlyFulfilment ?? null),
      better: "higher",
      raw: (s) => s.hourlyFulfilment ?? NaN,
    },
    {
      label: "Unallocated share",
      hint: "free, preemptible GPU time",
      value: (s) => formatShare(s.unallocatedShare),
    },
    {
      label: "Preemptions",
      value: (s) => formatInteger(s.preemptions),
      better: "lower",
      raw: (s) => s.preemptions,
    },
    { label: "Automated drains", value: (s) => formatInteger(s.automatedDrains) },
    {
      label: "Jobs completed",
      value: (s) => `${formatInteger(s.completedJobs)} of ${formatInteger(s.jobCount)}`,
      better: "higher",
      raw: (s) => s.completedJobs,
    },
    ...classes.flatMap((jobClass): ResultRow[] => [
      {
        label: `Wait p50, ${jobClass}`,
        value: (s) => (s.classes[jobClass] ? formatWait(s.classes[jobClass].waitP50Sec) : "–"),
        better: "lower",
        raw: (s) => s.classes[jobClass]?.waitP50Sec ?? NaN,
      },
      {
        label: `Wait p90, ${jobClass}`,
        value: (s) => (s.classes[jobClass] ? formatWait(s.classes[jobClass].waitP90Sec) : "–"),
        better: "lower",
        raw: (s) => s.classes[jobClass]?.waitP90Sec ?? NaN,
      },
    ]),
  ];
}
