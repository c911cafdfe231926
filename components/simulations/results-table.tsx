import type { SimulationSummary } from "@/lib/simulations/summary";
import { ScrollRegion } from "@/components/layout/scroll-region";
import { markBetter } from "./better-mark";
import { listResultRows } from "./results-rows";

const SCHEDULER_TITLES: Record<string, string> = {
  baseline: "Baseline (priorities)",
  allocation: "Allocation (budgets)",
};

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
          {listResultRows(summary).map((row) => {
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
