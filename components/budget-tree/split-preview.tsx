"use client";

import { useState } from "react";
import { formatInteger, formatPercent } from "@/lib/format";
import { gpuHoursByCluster, type ClusterRef, type PreviewRow } from "./tree-model";
import { ScrollRegion } from "@/components/layout/scroll-region";

function formatDelta(row: PreviewRow): string {
  if (row.oldShare === null) return "new";
  const points = (row.effectiveShare - row.oldShare) * 100;
  if (Math.abs(points) < 0.005) return "±0";
  return `${points > 0 ? "+" : "−"}${Math.abs(points).toFixed(2)} pts`;
}

/** What the edit does to every budget below the edited one, before anything is saved. */
export function SplitPreview({
  preview,
  clusters,
}: {
  preview: { ok: true; rows: PreviewRow[] } | { ok: false; message: string };
  clusters: ClusterRef[];
}) {
  // Large subtrees start folded so typing stays instant; the counts above still update.
  const [isOpen, setIsOpen] = useState(() => !preview.ok || preview.rows.length <= 200);
  if (!preview.ok) {
    return (
      <p className="warn-text" role="status">
        No preview yet: {preview.message}
      </p>
    );
  }
  // A leaf that gets no children yet: nothing below it to preview.
  if (preview.rows.length === 0) return null;
  const changed = preview.rows.filter(
    (row) => row.oldShare === null || Math.abs(row.effectiveShare - row.oldShare) > 1e-12,
  );
  return (
    <section className="preview" aria-labelledby="preview-heading">
      <div className="editor-head">
        <h3 id="preview-heading">Preview: shares after saving</h3>
        <button
          type="button"
          className="button button-small"
          aria-expanded={isOpen}
          onClick={() => setIsOpen(!isOpen)}
        >
          {isOpen ? "Hide" : "Show"} {preview.rows.length}{" "}
          {preview.rows.length === 1 ? "node" : "nodes"} below
        </button>
      </div>
      <p className="muted small" aria-live="polite">
        {changed.length === 0
          ? "Nothing changes yet."
          : `${changed.length} of ${preview.rows.length} ${preview.rows.length === 1 ? "node" : "nodes"} below change.`}
      </p>
      {isOpen ? (
        <p className="muted small scroll-hint">
          The table scrolls sideways: the GPU-hours per cluster are on its right.
        </p>
      ) : null}
      {isOpen ? (
        <ScrollRegion label="Preview of the new shares" className="preview-scroll">
          <table>
            <caption className="sr-only">Preview of the new shares</caption>
            <thead>
              <tr>
                <th scope="col">Budget</th>
                <th scope="col" className="num">
                  Now
                </th>
                <th scope="col" className="num">
                  After saving
                </th>
                <th scope="col" className="num">
                  Change
                </th>
                {clusters.map((cluster) => (
                  <th scope="col" className="num" key={cluster.name}>
                    {cluster.gpuType}-h/week
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row) => (
                <tr key={row.id}>
                  <th scope="row" className="tree-row-head">
                    <span
                      style={{
                        paddingLeft: `${(row.depth - 1) * 1.25}rem`,
                        fontWeight: row.depth === 1 ? 600 : 400,
                      }}
                    >
                      {row.name}
                    </span>
                  </th>
                  <td className="num">
                    {row.oldShare === null ? "—" : formatPercent(row.oldShare)}
                  </td>
                  <td className="num">{formatPercent(row.effectiveShare)}</td>
                  <td className="num">{formatDelta(row)}</td>
                  {gpuHoursByCluster(row.effectiveShare, clusters).map((hours, index) => (
                    <td className="num" key={clusters[index]!.name}>
                      {formatInteger(hours)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </section>
  );
}
