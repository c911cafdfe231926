"use client";

import { useMemo } from "react";
import { formatInteger, formatPercent, formatWeight } from "@/lib/format";
import { TreeRowName, useOpenBranches } from "./tree-fold";
import { visibleRows } from "./tree-model";
import { ScrollRegion } from "@/components/layout/scroll-region";

export type TreeRow = {
  id: string;
  parentId: string | null;
  name: string;
  depth: number;
  isLeaf: boolean;
  weight: number;
  fraction: number;
  effectiveShare: number;
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
      <table>
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
                {cluster.gpuType}-h/week
              </th>
            ))}
            <th scope="col">Leads</th>
          </tr>
        </thead>
        <tbody>
          {visible.map((row) => (
            <tr key={row.id}>
              <th
                scope="row"
                style={{
                  fontWeight: row.depth <= 1 ? 600 : 400,
                  background: "none",
                  color: "var(--text)",
                  fontSize: "inherit",
                }}
              >
                <TreeRowName
                  id={row.id}
                  name={row.name}
                  depth={row.depth}
                  isLeaf={row.isLeaf}
                  isOpen={open.has(row.id)}
                  onToggle={toggle}
                >
                  {row.name}
                  {row.isLeaf ? <span className="pill">{row.memberCount} members</span> : null}
                </TreeRowName>
              </th>
              <td className="num">{formatWeight(row.weight)}</td>
              <td className="num">{row.parentId === null ? "—" : formatPercent(row.fraction)}</td>
              <td>
                <span
                  className="share-bar"
                  style={{ width: `${Math.max(row.effectiveShare * 120, 1)}px` }}
                />
                {formatPercent(row.effectiveShare)}
              </td>
              {clusters.map((cluster) => (
                <td className="num" key={cluster.name}>
                  {formatInteger(row.gpuHoursPerWeek[cluster.name] ?? 0)}
                </td>
              ))}
              <td>{row.leads.join(", ") || <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
