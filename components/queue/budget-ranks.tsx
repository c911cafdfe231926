import type { ClusterQueue } from "@/lib/data/queue";
import { formatInteger, formatPercent } from "@/lib/format";

/** The budgets' Fair Tree ranks on one cluster, with usage over the window. */
export function BudgetRanks({
  budgets,
  lookbackSec,
}: Pick<ClusterQueue, "budgets" | "lookbackSec">) {
  if (budgets.length === 0)
    return <p>No ranking yet: the scheduler has not run on this cluster.</p>;
  const days = Math.round(lookbackSec / 86_400);
  return (
    <div className="table-scroll">
      <table>
        <caption className="sr-only">Budgets by Fair Tree rank</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col">Budget</th>
            <th scope="col" className="num">
              Share
            </th>
            <th scope="col" className="num">
              Used ({days} d, GPU-h)
            </th>
            <th scope="col">Usage of share</th>
          </tr>
        </thead>
        <tbody>
          {budgets.map((budget) => {
            const ratio = budget.usageRatio;
            return (
              <tr key={budget.id}>
                <td className="num">{budget.rank ?? "–"}</td>
                <th scope="row" className="tree-row-head">
                  {budget.path}
                </th>
                <td className="num">{formatPercent(budget.effectiveShare)}</td>
                <td className="num">{formatInteger(budget.usageGpuHours)}</td>
                <td>
                  {ratio === null ? (
                    "no share"
                  ) : (
                    <>
                      <span
                        className={`usage-bar ${ratio > 1 ? "usage-over" : ""}`}
                        style={{ width: `${Math.min(120, Math.round(ratio * 60))}px` }}
                        aria-hidden="true"
                      />
                      {formatPercent(ratio)}
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
