import type { HistoryEntry, WeightEntry } from "@/lib/data/budget-history";
import { formatPercent, formatDateTime, formatWeight } from "@/lib/format";
import "./budget-tree.css";
import { ScrollRegion } from "@/components/layout/scroll-region";

type Child = { id: string; name: string; weight: number };

function fractions(children: Child[]): Map<string, number> {
  const total = children.reduce((sum, child) => sum + child.weight, 0);
  return new Map(children.map((child) => [child.id, total > 0 ? child.weight / total : 0]));
}

function ChildrenDiff({
  label,
  before,
  after,
}: {
  /** The scroll region's name: one per change, so that each names its own. */
  label: string;
  before: Child[];
  after: Child[];
}) {
  const ids = [...new Set([...before.map((child) => child.id), ...after.map((child) => child.id)])];
  const fractionBefore = fractions(before);
  const fractionAfter = fractions(after);
  return (
    <ScrollRegion label={label}>
      <table>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            <th scope="col">Budget</th>
            <th scope="col" className="num">
              Weight before
            </th>
            <th scope="col" className="num">
              Weight after
            </th>
            <th scope="col" className="num">
              Of parent before
            </th>
            <th scope="col" className="num">
              Of parent after
            </th>
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => {
            const old = before.find((child) => child.id === id);
            const now = after.find((child) => child.id === id);
            const renamed = old && now && old.name !== now.name ? ` (was ${old.name})` : "";
            const isChanged = !old || !now || old.weight !== now.weight || old.name !== now.name;
            return (
              <tr key={id} className={isChanged ? "is-changed" : undefined}>
                <th scope="row" className="tree-row-head">
                  {(now ?? old)!.name}
                  {renamed}
                  {!old ? <span className="pill">added</span> : null}
                  {!now ? <span className="pill">removed</span> : null}
                </th>
                <td className="num">{old ? formatWeight(old.weight) : "—"}</td>
                <td className="num">{now ? formatWeight(now.weight) : "—"}</td>
                <td className="num">{old ? formatPercent(fractionBefore.get(id) ?? 0) : "—"}</td>
                <td className="num">{now ? formatPercent(fractionAfter.get(id) ?? 0) : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

const KIND_LABEL = { children: "Split", leads: "Leads", members: "Members" } as const;

/** A node's changes, newest first: who, when, why, and the values before and after. */
export function HistoryList({ changes }: { changes: HistoryEntry[] }) {
  if (changes.length === 0) return <p className="muted">No changes yet.</p>;
  return (
    <ol className="history">
      {changes.map((change) => (
        <li key={change.id} className="history-entry">
          <p className="history-meta">
            <span className="pill">{KIND_LABEL[change.kind]}</span>{" "}
            <time dateTime={change.at}>{formatDateTime(change.at)}</time> ·{" "}
            <strong>{change.by ?? "a deleted user"}</strong>
          </p>
          <p className="history-reason">“{change.reason}”</p>
          {change.kind === "children" ? (
            <ChildrenDiff
              label={`Split change of ${formatDateTime(change.at)}`}
              before={change.before}
              after={change.after}
            />
          ) : (
            <p>
              {change.after
                .filter((person) => !change.before.some((old) => old.id === person.id))
                .map((person) => `Added ${personLabel(person)}. `)}
              {change.before
                .filter((person) => !change.after.some((now) => now.id === person.id))
                .map((person) => `Removed ${personLabel(person)}. `)}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The node's own weight from each change on (what reports read for past hours). */
export function WeightTimeline({ weights }: { weights: WeightEntry[] }) {
  if (weights.length === 0) return <p className="muted">No weight recorded.</p>;
  return (
    <ScrollRegion label="The weight over time">
      <table>
        <caption className="sr-only">The weight over time</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col" className="num">
              Weight before
            </th>
            <th scope="col" className="num">
              Weight from then on
            </th>
          </tr>
        </thead>
        <tbody>
          {weights.map((row) => (
            <tr key={`${row.at}-${row.weightAfter}`}>
              <td>{formatDateTime(row.at)}</td>
              <td className="num">
                {row.weightBefore === null ? "— (created)" : formatWeight(row.weightBefore)}
              </td>
              <td className="num">
                {row.weightAfter === null ? "— (removed)" : formatWeight(row.weightAfter)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function personLabel(person: { name: string; email?: string }): string {
  return person.email ? `${person.name} (${person.email})` : person.name;
}
