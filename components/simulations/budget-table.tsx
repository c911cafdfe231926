import type { SimulationSummary } from "@/lib/simulations/summary";
import { formatFulfilment, formatGpuHoursNumber, formatInteger, formatShare } from "@/lib/format";
import { ScrollRegion } from "@/components/layout/scroll-region";

/** Per budget: share, entitled and received GPU-hours, fulfilment and preemptions, both runs. */
export function BudgetTable({ summary }: { summary: SimulationSummary }) {
  const names = Object.keys(summary.schedulers);
  const byPath = new Map<
    string,
    Record<string, SimulationSummary["schedulers"][string]["budgets"][number]>
  >();
  for (const name of names) {
    for (const budget of summary.schedulers[name]?.budgets ?? []) {
      byPath.set(budget.path, { ...byPath.get(budget.path), [name]: budget });
    }
  }
  const paths = [...byPath.keys()].sort();
  return (
    <details className="card budget-details">
      <summary>
        <h2>Fulfilment per budget ({paths.length})</h2>
      </summary>
      <ScrollRegion label="Per budget">
        <table>
          <caption className="sr-only">Per budget</caption>
          <thead>
            <tr>
              <th scope="col">Budget</th>
              <th scope="col" className="num">
                Share
              </th>
              {names.map((name) => (
                <th key={name} scope="col" className="num" colSpan={3}>
                  {name}: entitled / received GPU-h, fulfilment
                </th>
              ))}
              {names.map((name) => (
                <th key={`${name}-p`} scope="col" className="num">
                  {name} preemptions
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {paths.map((path) => {
              const row = byPath.get(path)!;
              const share = Object.values(row)[0]?.effectiveShare ?? 0;
              return (
                <tr key={path}>
                  <th scope="row" className="tree-row-head">
                    {path}
                  </th>
                  <td className="num">{formatShare(share)}</td>
                  {names.flatMap((name) => [
                    <td key={`${name}-e`} className="num">
                      {formatGpuHoursNumber(row[name]?.entitledGpuHours ?? 0)}
                    </td>,
                    <td key={`${name}-r`} className="num">
                      {formatGpuHoursNumber(row[name]?.receivedGpuHours ?? 0)}
                    </td>,
                    <td key={`${name}-f`} className="num">
                      {formatFulfilment(row[name]?.fulfilment ?? null)}
                    </td>,
                  ])}
                  {names.map((name) => (
                    <td key={`${name}-p`} className="num">
                      {formatInteger(row[name]?.preemptions ?? 0)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
    </details>
  );
}
