import type { ClusterSummary } from "@/lib/data/clusters";
import { formatInteger } from "@/lib/format";
import { ScrollRegion } from "@/components/layout/scroll-region";

export function ClusterTable({ clusters }: { clusters: ClusterSummary[] }) {
  if (clusters.length === 0) return <p>No clusters yet.</p>;
  return (
    <ScrollRegion label="Clusters">
      <table>
        <thead>
          <tr>
            <th scope="col">Cluster</th>
            <th scope="col">GPU type</th>
            <th scope="col" className="num">
              Nodes
            </th>
            <th scope="col" className="num">
              GPUs
            </th>
            <th scope="col" className="num">
              Healthy nodes
            </th>
            <th scope="col" className="num">
              Draining nodes
            </th>
            <th scope="col" className="num">
              Down nodes
            </th>
          </tr>
        </thead>
        <tbody>
          {clusters.map((cluster) => (
            <tr key={cluster.name}>
              <th scope="row" className="tree-row-head">
                {cluster.name}
              </th>
              <td>
                {cluster.gpuType}
                {cluster.executor === "slurm" ? <span className="muted"> · SLURM</span> : null}
              </td>
              <td className="num">{formatInteger(cluster.nodes)}</td>
              <td className="num">{formatInteger(cluster.gpus)}</td>
              <td
                className={`num ${cluster.healthyNodes === cluster.nodes ? "health-ok" : "health-warn"}`}
              >
                {formatInteger(cluster.healthyNodes)}
              </td>
              <td className="num">{formatInteger(cluster.drainingNodes)}</td>
              <td className={`num ${cluster.downNodes > 0 ? "health-bad" : ""}`}>
                {formatInteger(cluster.downNodes)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
