import { formatPercent, formatWeight } from "@/lib/format";
import type { DraftChildView } from "@/lib/data/budget-drafts";
import { ScrollRegion } from "@/components/layout/scroll-region";

type Child = { id?: string | undefined; name: string; weight: number };

function fractions(children: readonly Child[]): number[] {
  const total = children.reduce((sum, child) => sum + child.weight, 0);
  return children.map((child) => (total > 0 ? child.weight / total : 0));
}

/**
 * The draft's children beside the split in force now: weights and fractions of the parent. An
 * adopted draft is shown beside the split it replaced (`isAdopted`), `proposed` being the split
 * its adoption made, so its new budgets are matched by id.
 */
export function DraftSplit({
  proposed,
  current,
  isAdopted = false,
}: {
  proposed: readonly DraftChildView[];
  current: readonly Child[];
  isAdopted?: boolean;
}) {
  const then = isAdopted ? "before" : "now";
  const proposedFractions = fractions(proposed);
  const currentFractions = fractions(current);
  const currentIndex = new Map(current.map((child, index) => [child.id, index]));
  const leftOut = current.filter((child) => !proposed.some((row) => row.id === child.id));
  return (
    <ScrollRegion label="The draft beside the split in force">
      <table className="draft-split">
        <caption className="sr-only">The draft beside the split in force</caption>
        <thead>
          <tr>
            <th>Budget</th>
            <th className="num">Weight {then}</th>
            <th className="num">Draft weight</th>
            <th className="num">Share of the parent {then}</th>
            <th className="num">With the draft</th>
          </tr>
        </thead>
        <tbody>
          {proposed.map((child, index) => {
            const at = child.id === undefined ? undefined : currentIndex.get(child.id);
            const before = at === undefined ? undefined : current[at];
            const isChanged =
              !before || before.weight !== child.weight || before.name !== child.name;
            return (
              <tr key={child.id ?? `new-${index}`}>
                <td>
                  {child.name}
                  {before && before.name !== child.name ? ` (now ${before.name})` : null}
                  {!before ? (isAdopted ? " (added)" : " (new)") : null}
                </td>
                <td className="num">{before ? formatWeight(before.weight) : "–"}</td>
                <td className={`num${isChanged ? " changed" : ""}`}>
                  {formatWeight(child.weight)}
                </td>
                <td className="num">
                  {at === undefined ? "–" : formatPercent(currentFractions[at]!)}
                </td>
                <td className={`num${isChanged ? " changed" : ""}`}>
                  {formatPercent(proposedFractions[index]!)}
                </td>
              </tr>
            );
          })}
          {leftOut.map((child) => (
            <tr key={child.id}>
              <td>
                {child.name} ({isAdopted ? "removed on adoption" : "left out: removed on adoption"})
              </td>
              <td className="num">{formatWeight(child.weight)}</td>
              <td className="num changed">–</td>
              <td className="num">
                {formatPercent(currentFractions[currentIndex.get(child.id)!]!)}
              </td>
              <td className="num changed">–</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
