import type { SchedulerSummary, SimulationSummary } from "@/lib/simulations/summary";
import { formatInteger, formatShare, formatWait } from "@/lib/format";
import { ScrollRegion } from "@/components/layout/scroll-region";
import { markBetter } from "./better-mark";

type Row = {
  label: string;
  hint?: string;
  value: (s: SchedulerSummary) => string;
  /** Lower is better (for the "better" mark); undefined: no judgement. */
  better?: "higher" | "lower";
  raw?: (s: SchedulerSummary) => number;
};

const SCHEDULER_TITLES: Record<string, string> = {
  baseline: "Baseline (priorities)",
  allocation: "Allocation (budgets)",
};

function rowsFor(summary: SimulationSummary): Row[] {
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
      value: (s) => formatShare(s.fulfilment),
      better: "higher",
      raw: (s) => s.fulfilment ?? NaN,
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
    ...classes.flatMap((jobClass): Row[] => [
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

/** Headline numbers of both schedulers side by side, the better of each marked. */
export function ResultsTable({ summary }: { summary: SimulationSummary }) {
  const names = Object.keys(summary.schedulers);
  return (
    <ScrollRegion label="Baseline and allocation side by side">
      <table className="results-table">
        <caption className="sr-only">Baseline and allocation side by side</caption>
        <thead>
          <tr>
            <th scope="col">Measure</th>
            {names.map((name) => (
              <th key={name} scope="col" className="num">
                <span className={`swatch swatch-${name}`} aria-hidden="true" />
                {SCHEDULER_TITLES[name] ?? name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rowsFor(summary).map((row) => {
            const values = names.map((name) => row.raw?.(summary.schedulers[name]!) ?? NaN);
            const shown = names.map((name) => row.value(summary.schedulers[name]!));
            const isBetter = markBetter(values, shown, row.better);
            return (
              <tr key={row.label}>
                <th scope="row">
                  {row.label}
                  {row.hint ? <span className="hint"> {row.hint}</span> : null}
                </th>
                {names.map((name, i) => {
                  const isBest = isBetter[i];
                  return (
                    <td key={name} className={`num${isBest ? " is-better" : ""}`}>
                      {shown[i]}
                      {isBest ? <span className="sr-only"> (better)</span> : null}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
