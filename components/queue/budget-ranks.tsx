import { ScrollRegion } from "@/components/layout/scroll-region";
import type { ClusterQueue } from "@/lib/data/queue";
import { formatInteger, formatPercent } from "@/lib/format";

type TreeRow = ClusterQueue["tree"][number];

/** Level fair-share as `sshare -l` prints it: "inf" for an unused branch, two decimals else. */
function formatLevelFairShare(value: TreeRow["levelFairShare"]): string {
  if (value === "inf") return "inf";
  if (value === null || value === undefined) return "–";
  return value.toFixed(2);
}

/**
 * The budget tree on one cluster as Fair Tree ranks it, like `sshare -l`: siblings by level
 * fair-share, so ranks read down the page and each branch shows the comparison that placed it.
 */
export function BudgetRanks({ tree, lookbackSec }: Pick<ClusterQueue, "tree" | "lookbackSec">) {
  const rows = tree.filter((row) => row.depth > 0);
  if (rows.length === 0) return <p>No ranking yet: the scheduler has not run on this cluster.</p>;
  const days = Math.round(lookbackSec / 86_400);
  const leafCount = rows.filter((row) => row.isLeaf).length;
  return (
    <ScrollRegion label="Budget tree by Fair Tree rank">
      <table className="rank-tree">
        <caption className="sr-only">Budget tree by Fair Tree rank</caption>
        <thead>
          <tr>
            <th scope="col">Budget</th>
            <th scope="col" className="num">
              Weight
            </th>
            <th scope="col" className="num">
              <abbr title="Weight over the sum of its siblings' weights">Of siblings</abbr>
            </th>
            <th scope="col" className="num">
              Used ({days} d, GPU-h)
            </th>
            <th scope="col">Usage of share</th>
            <th scope="col" className="num">
              <abbr title="Level fair-share: share among siblings over usage among siblings; higher goes first">
                Level FS
              </abbr>
            </th>
            <th scope="col" className="num">
              Rank (of {leafCount})
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className={row.isLeaf ? undefined : "rank-branch"}>
              <th
                scope="row"
                className="tree-row-head"
                style={{ paddingLeft: `${(row.depth - 1) * 1.25 + 0.5}rem` }}
              >
                <span className={row.isLeaf ? undefined : "strong"}>{row.name}</span>
              </th>
              <td className="num">
                {row.weight === undefined
                  ? "–"
                  : Number.isInteger(row.weight)
                    ? formatInteger(row.weight)
                    : row.weight.toFixed(2)}
              </td>
              <td className="num">
                {row.fraction === undefined ? "–" : formatPercent(row.fraction)}
              </td>
              <td className="num">{formatInteger(row.usageGpuHours)}</td>
              <td>
                {row.usageRatio === null ? (
                  "no share"
                ) : (
                  <>
                    <span
                      className={`usage-bar ${row.usageRatio > 1 ? "usage-over" : ""}`}
                      style={{ width: `${Math.min(120, Math.round(row.usageRatio * 60))}px` }}
                      aria-hidden="true"
                    />
                    {formatPercent(row.usageRatio)}
                  </>
                )}
              </td>
              <td className="num">{formatLevelFairShare(row.levelFairShare)}</td>
              <td className="num">{row.isLeaf ? (row.rank ?? "–") : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
