"use client";

import { useMemo, useState } from "react";
import { formatInteger, formatPercent, formatWeight } from "@/lib/format";

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
  const [open, setOpen] = useState<Set<string>>(
    () =>
      new Set(rows.filter((row) => !row.isLeaf && row.depth < initialDepth).map((row) => row.id)),
  );
  const visible = useMemo(() => {
    const isVisible = new Map<string, boolean>();
    return rows.filter((row) => {
      const shown =
        row.parentId === null || (isVisible.get(row.parentId) === true && open.has(row.parentId));
      isVisible.set(row.id, shown);
      return shown;
    });
  }, [rows, open]);

  function toggle(id: string) {
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
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
              <span className="tree-name" style={{ paddingLeft: `${row.depth * 1.25}rem` }}>
                {row.isLeaf ? (
                  <span aria-hidden="true" style={{ width: "1.4rem", display: "inline-block" }} />
                ) : (
                  <button
                    type="button"
                    className="tree-toggle"
                    aria-expanded={open.has(row.id)}
                    aria-label={`${open.has(row.id) ? "Collapse" : "Expand"} ${row.name}`}
                    onClick={() => toggle(row.id)}
                  >
                    {open.has(row.id) ? "▾" : "▸"}
                  </button>
                )}
                {row.name}
                {row.isLeaf ? <span className="pill">{row.memberCount} members</span> : null}
              </span>
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
  );
}
