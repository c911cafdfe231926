import type { Metadata } from "next";
import Link from "next/link";
import { GpuBar } from "@/components/clusters/gpu-bar";
import { AutoRefresh } from "@/components/layout/auto-refresh";
import { listClusterLoads } from "@/lib/data/queue";
import { formatInteger, formatPercent } from "@/lib/format";

export const metadata: Metadata = { title: "Clusters" };

export default async function ClustersPage() {
  const clusters = await listClusterLoads();
  return (
    <>
      <AutoRefresh seconds={5} />
      <div className="page-head">
        <h1>Clusters</h1>
        <p className="muted">
          Live: GPUs busy with allocated (charged, protected) and unallocated (free) work, idle
          GPUs, unhealthy nodes and the demand waiting in each queue.
        </p>
      </div>
      <div className="cluster-cards">
        {clusters.map((cluster) => {
          const busy = cluster.allocatedGpus + cluster.unallocatedGpus;
          return (
            <section key={cluster.name} className="card" aria-labelledby={`c-${cluster.name}`}>
              <div className="card-head">
                <h2 id={`c-${cluster.name}`}>
                  <Link href={`/clusters/${cluster.name}`}>{cluster.name}</Link>{" "}
                  <span className="pill">{cluster.gpuType}</span>
                </h2>
                <span className="muted">
                  {formatInteger(cluster.nodes)} nodes · {formatInteger(cluster.gpus)} GPUs
                </span>
              </div>
              <p className="stat-line">
                <span className="stat">{formatPercent(busy / Math.max(1, cluster.gpus))}</span> busy
              </p>
              <GpuBar split={cluster} totalGpus={cluster.gpus} />
              <dl className="facts">
                <div>
                  <dt>Pending jobs</dt>
                  <dd>{formatInteger(cluster.pendingJobs)}</dd>
                </div>
                <div>
                  <dt>Pending GPU demand</dt>
                  <dd>{formatInteger(cluster.pendingGpus)} GPUs</dd>
                </div>
                <div>
                  <dt>Draining nodes</dt>
                  <dd className={cluster.drainingNodes > 0 ? "health-warn" : ""}>
                    {cluster.drainingNodes}
                  </dd>
                </div>
                <div>
                  <dt>Down nodes</dt>
                  <dd className={cluster.downNodes > 0 ? "health-bad" : ""}>{cluster.downNodes}</dd>
                </div>
              </dl>
              <p className="card-links">
                <Link href={`/clusters/${cluster.name}`}>Queue</Link>
                <Link href={`/clusters/${cluster.name}/nodes`}>Nodes</Link>
              </p>
            </section>
          );
        })}
      </div>
    </>
  );
}
