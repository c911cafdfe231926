"use client";

import { memo } from "react";
import { ScrollRegion } from "@/components/layout/scroll-region";
import { BudgetTreeHead, BudgetTreeRow, type SubtreeTotals } from "./budget-tree-rows";
import { gpuHoursByCluster, type ClusterRef, type NodeRow } from "./tree-model";

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
    <ScrollRegion label="Budget tree">
      <table className="tree-table">
        <caption className="sr-only">Budget tree</caption>
        <BudgetTreeHead clusters={clusters} />
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
    </ScrollRegion>
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
    <BudgetTreeRow
      row={row}
      gpuHours={gpuHoursByCluster(row.effectiveShare, clusters)}
      leads={row.leads.map((lead) => lead.name)}
      memberCount={row.members.length}
      total={total}
      isOpen={isOpen}
      isSelected={isSelected}
      isFoldDisabled={isSearching}
      onToggle={onToggle}
    >
      <button
        type="button"
        className="tree-select"
        aria-current={isSelected ? "true" : undefined}
        onClick={() => onSelect(row.id)}
      >
        {row.name}
      </button>
    </BudgetTreeRow>
  );
});
