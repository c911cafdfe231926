// The head and the rows every budget-tree table shares (the overview's, read-only, and the
// budgets page's, where names select a budget): weight, fraction of parent, effective share,
// GPU-hours per week on each cluster, leads.
import type { ReactNode } from "react";
import { formatInteger, formatPercent, formatWeight } from "@/lib/format";
import { TreeRowName } from "./tree-fold";
import type { ShareRow } from "./tree-model";
import "./budget-tree.css";

export type SubtreeTotals = { budgets: number; people: number };

export function BudgetTreeHead({ clusters }: { clusters: { name: string; gpuType: string }[] }) {
  return (
    <thead>
      <tr>
        <th scope="col">Budget</th>
        <th scope="col" className="num">
          Weight
        </th>
        <th scope="col" className="num">
          Of parent
        </th>
        <th scope="col">Effective share</th>
        {clusters.map((cluster) => (
          <th scope="col" className="num" key={cluster.name}>
            <abbr title={`${cluster.gpuType} GPU-hours per week`}>{cluster.gpuType} h/wk</abbr>
          </th>
        ))}
        <th scope="col">Leads</th>
      </tr>
    </thead>
  );
}

/**
 * One node's row. `children` is its name (text, or a button that selects it); a leaf shows its
 * member count, a branch the totals below it when given, as on an org chart.
 */
export function BudgetTreeRow({
  row,
  gpuHours,
  leads,
  memberCount,
  total,
  isOpen,
  isSelected = false,
  isFoldDisabled = false,
  onToggle,
  children,
}: {
  row: ShareRow;
  /** GPU-hours per week on each cluster, in the head's order. */
  gpuHours: number[];
  leads: string[];
  memberCount: number;
  total?: SubtreeTotals;
  isOpen: boolean;
  isSelected?: boolean;
  isFoldDisabled?: boolean;
  onToggle: (id: string) => void;
  children: ReactNode;
}) {
  const leadNames = leads.join(", ");
  return (
    <tr className={isSelected ? "is-selected" : undefined}>
      <th scope="row" className="tree-row-head" style={{ fontWeight: row.depth <= 1 ? 600 : 400 }}>
        <TreeRowName
          id={row.id}
          name={row.name}
          depth={row.depth}
          isLeaf={row.isLeaf}
          isOpen={isOpen}
          isDisabled={isFoldDisabled}
          onToggle={onToggle}
        >
          {children}
          {row.isLeaf ? (
            <span className="pill">
              {memberCount} {memberCount === 1 ? "member" : "members"}
            </span>
          ) : total ? (
            <span className="bracket">
              [{total.budgets} {total.budgets === 1 ? "budget" : "budgets"} · {total.people} people]
            </span>
          ) : null}
        </TreeRowName>
      </th>
      <td className="num">{formatWeight(row.weight)}</td>
      <td className="num">{row.parentId === null ? "—" : formatPercent(row.fraction)}</td>
      <td className="num share-cell">
        <span className="share-track" aria-hidden="true">
          <span
            className="share-bar"
            style={{ width: `${Math.max(row.effectiveShare * 100, 0.5)}%` }}
          />
        </span>
        {formatPercent(row.effectiveShare)}
      </td>
      {gpuHours.map((hours, index) => (
        <td className="num" key={index}>
          {formatInteger(hours)}
        </td>
      ))}
      <td className="leads-cell" title={leadNames}>
        {leadNames || <span className="muted">—</span>}
      </td>
    </tr>
  );
}
