"use client";

import { memo } from "react";
import { formatInteger, formatPercent, formatWeight } from "@/lib/format";
import { TreeRowName } from "./tree-fold";
import { gpuHoursByCluster, type ClusterRef, type NodeRow } from "./tree-model";

export type SubtreeTotals = { budgets: number; people: number };

/**
 * The budget tree as a table: every row shows weight, fraction of parent, effective share
 * and GPU-hours per week on each cluster, with its leads; inner rows carry the totals
 * below them in brackets, as on an org chart. Names select a budget; arrows fold branches.
 */
export function BudgetTreeView({
  rows,
  clusters,
  open,
  totals,
  selectedId,
  isSearching,
  onToggle,
  onSelect,
}: {
  rows: NodeRow[];
  clusters: ClusterRef[];
  open: Set<string>;
  totals: Map<string, SubtreeTotals>;
  selectedId: string;
  isSearching: boolean;
  onToggle: (id: string) => void;
  onSelect: (id: string) => void;
}) {
  return (
    <div className="table-scroll">
      <table className="tree-table">
        <caption className="sr-only">Budget tree</caption>
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
        <tbody>
          {rows.map((row) => (
            <TreeRow
              key={row.id}
              row={row}
              clusters={clusters}
              isOpen={isSearching || open.has(row.id)}
              total={totals.get(row.id)}
              isSelected={row.id === selectedId}
              isSearching={isSearching}
              onToggle={onToggle}
              onSelect={onSelect}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

type TreeRowProps = {
  row: NodeRow;
  clusters: ClusterRef[];
  isOpen: boolean;
  total: SubtreeTotals | undefined;
  isSelected: boolean;
  isSearching: boolean;
  onToggle: (id: string) => void;
  onSelect: (id: string) => void;
};

/** One row, memoised: selecting or folding re-renders the rows that changed, not all 1,000. */
const TreeRow = memo(function TreeRow({
  row,
  clusters,
  isOpen,
  total,
  isSelected,
  isSearching,
  onToggle,
  onSelect,
}: TreeRowProps) {
  return (
    <tr className={isSelected ? "is-selected" : undefined}>
      <th scope="row" className="tree-row-head">
        <TreeRowName
          id={row.id}
          name={row.name}
          depth={row.depth}
          isLeaf={row.isLeaf}
          isOpen={isOpen}
          isDisabled={isSearching}
          onToggle={onToggle}
        >
          <button
            type="button"
            className="tree-select"
            aria-current={isSelected ? "true" : undefined}
            onClick={() => onSelect(row.id)}
            style={{ fontWeight: row.depth <= 1 ? 600 : 400 }}
          >
            {row.name}
          </button>
          {row.isLeaf ? (
            <span className="pill">
              {row.members.length} {row.members.length === 1 ? "member" : "members"}
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
      {gpuHoursByCluster(row.effectiveShare, clusters).map((hours, index) => (
        <td className="num" key={clusters[index]!.name}>
          {formatInteger(hours)}
        </td>
      ))}
      <td className="leads-cell" title={row.leads.map((lead) => lead.name).join(", ")}>
        {row.leads.map((lead) => lead.name).join(", ") || <span className="muted">—</span>}
      </td>
    </tr>
  );
});
