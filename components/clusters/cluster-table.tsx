import { DataTable, type Column } from "@/components/layout/data-table";
import type { ClusterSummary } from "@/lib/data/clusters";
import { formatInteger } from "@/lib/format";

const COLUMNS: Column<ClusterSummary>[] = [
  { header: "Cluster", isRowHeader: true, cell: (cluster) => cluster.name },
  {
    header: "GPU type",
    cell: (cluster) => (
      <>
        {cluster.gpuType}
        {cluster.executor === "slurm" ? <span className="muted"> · SLURM</span> : null}
      </>
    ),
  },
  { header: "Nodes", isNumeric: true, cell: (cluster) => formatInteger(cluster.nodes) },
  { header: "GPUs", isNumeric: true, cell: (cluster) => formatInteger(cluster.gpus) },
  {
    header: "Healthy nodes",
    isNumeric: true,
    cell: (cluster) => formatInteger(cluster.healthyNodes),
    cellClassName: (cluster) =>
      cluster.healthyNodes === cluster.nodes ? "health-ok" : "health-warn",
  },
  {
    header: "Draining nodes",
    isNumeric: true,
    cell: (cluster) => formatInteger(cluster.drainingNodes),
  },
  {
    header: "Down nodes",
    isNumeric: true,
    cell: (cluster) => formatInteger(cluster.downNodes),
    cellClassName: (cluster) => (cluster.downNodes > 0 ? "health-bad" : undefined),
  },
];

export function ClusterTable({ clusters }: { clusters: ClusterSummary[] }) {
  if (clusters.length === 0) return <p>No clusters yet.</p>;
  return <DataTable label="Clusters" columns={COLUMNS} rows={clusters} rowKey={(c) => c.name} />;
}
