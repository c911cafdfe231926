"use client";

import { useMemo } from "react";
import { BudgetTreeHead, BudgetTreeRow } from "./budget-tree-rows";
import { useOpenBranches } from "./tree-fold";
import { visibleRows, type ShareRow } from "./tree-model";
import { ScrollRegion } from "@/components/layout/scroll-region";

export type TreeRow = ShareRow & {
  leads: string[];
  memberCount: number;
  /** Cluster name -> GPU-hours per week owed to this node. */
  gpuHoursPerWeek: Record<string, number>;
};

/**
 * The budget tree, read-only: weight, fraction of parent, effective share and what it
 * means in GPU-hours per week on each cluster. Branches fold and unfold by keyboard too.
 */
export function BudgetTreeTable({
  rows,
  clusters,
  initialDepth = 2,
}: {
  rows: TreeRow[];
  clusters: { name: string; gpuType: string }[];
  initialDepth?: number;
}) {
  const { open, toggle } = useOpenBranches(
    () =>
      new Set(rows.filter((row) => !row.isLeaf && row.depth < initialDepth).map((row) => row.id)),
  );
  const visible = useMemo(() => visibleRows(rows, open), [rows, open]);

  return (
    <ScrollRegion label="Budget tree">
      <table className="tree-table">
        <caption className="sr-only">Budget tree</caption>
        <BudgetTreeHead clusters={clusters} />
        <tbody>
          {visible.map((row) => (
            <BudgetTreeRow
              key={row.id}
              row={row}
              gpuHours={clusters.map((cluster) => row.gpuHoursPerWeek[cluster.name] ?? 0)}
              leads={row.leads}
              memberCount={row.memberCount}
              isOpen={open.has(row.id)}
              onToggle={toggle}
            >
              {row.name}
            </BudgetTreeRow>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
