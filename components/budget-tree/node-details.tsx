"use client";

import Link from "next/link";
import { formatInteger, formatPercent, formatWeight } from "@/lib/format";
import { PeopleEditor } from "./people-editor";
import { gpuHoursByCluster, type ClusterRef, type NodeRow } from "./tree-model";

/** "7 days" when every cluster looks back 7 days (the default), else "window". */
function windowLabel(clusters: ClusterRef[]): string {
  const days = new Set(clusters.map((cluster) => (cluster.lookbackSec ?? 604_800) / 86_400));
  const [only] = [...days];
  return days.size === 1 && only !== undefined ? `${only} days` : "lookback window";
}

/** The selected budget: what it is owed and used per cluster, its split, its people, and what the viewer may do. */
export function NodeDetails({
  node,
  rows,
  clusters,
  isEditing,
  onEdit,
}: {
  node: NodeRow;
  rows: NodeRow[];
  clusters: ClusterRef[];
  isEditing: boolean;
  onEdit: () => void;
}) {
  const children = rows.filter((row) => row.parentId === node.id);
  const hours = gpuHoursByCluster(node.effectiveShare, clusters);
  return (
    <aside className="card details" aria-labelledby="details-heading">
      {/* Focusable from script: a budget chosen on a phone moves the focus here. */}
      <h2 id="details-heading" tabIndex={-1}>
        {node.path || node.name}
      </h2>
      <p className="details-share">
        <strong>{formatPercent(node.effectiveShare)}</strong> of every cluster
        {node.parentId !== null ? (
          <span className="muted">
            {" "}
            · weight {formatWeight(node.weight)} = {formatPercent(node.fraction)} of its parent
          </span>
        ) : null}
      </p>
      <table className="owed-used">
        <caption>Owed and used per cluster, in GPU-hours</caption>
        <thead>
          <tr>
            <th scope="col">Cluster</th>
            <th scope="col" className="num">
              Owed per week
            </th>
            <th scope="col" className="num">
              Used, last {windowLabel(clusters)}
            </th>
          </tr>
        </thead>
        <tbody>
          {clusters.map((cluster, index) => {
            const used = cluster.usedGpuHoursById?.[node.id];
            return (
              <tr key={cluster.name}>
                <th scope="row">
                  {cluster.name} <span className="muted">({cluster.gpuType})</span>
                </th>
                <td className="num">{formatInteger(hours[index]!)}</td>
                <td className="num">{used === undefined ? "–" : formatInteger(used)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="details-actions">
        {node.canEdit ? (
          <button
            type="button"
            className="button button-primary"
            onClick={onEdit}
            disabled={isEditing}
          >
            {children.length > 0 ? `Edit split of ${node.name}` : `Add budgets under ${node.name}`}
          </button>
        ) : null}
        <Link className="button" href={`/budgets/${encodeURIComponent(node.id)}/history`}>
          History
        </Link>
        {node.canEdit ? (
          <Link className="button" href={`/budgets/${encodeURIComponent(node.id)}/drafts`}>
            Drafts and what-ifs
          </Link>
        ) : null}
      </div>
      {children.length > 0 ? (
        <>
          <h3>Split</h3>
          <ul className="split-list">
            {children.map((child) => (
              <li key={child.id}>
                <span>{child.name}</span>
                <span className="num">
                  {formatWeight(child.weight)} → {formatPercent(child.fraction)}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>Leads</h3>
      <PeopleEditor
        nodeId={node.id}
        nodeName={node.name}
        role="leads"
        people={node.leads}
        canManage={node.canManageLeads}
      />
      {node.isLeaf ? (
        <>
          <h3>Members</h3>
          <PeopleEditor
            nodeId={node.id}
            nodeName={node.name}
            role="members"
            people={node.members}
            canManage={node.canEdit}
          />
        </>
      ) : null}
      {!node.canEdit && !node.canManageLeads ? (
        <p className="muted small">
          You can read this budget. Its leads and the leads above it change it.
        </p>
      ) : null}
    </aside>
  );
}
