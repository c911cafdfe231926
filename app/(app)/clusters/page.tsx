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
          Live: each cluster&apos;s GPUs in parts that add up to its total. On healthy nodes:
          running allocated (charged, protected) work, running unallocated (free) work, idle. Then
          every GPU of a draining node (busy or idle) and of a down node. Below, the demand waiting
          in each queue.
        </p>
      </div>
      <div className="cluster-cards">
        {clusters.map((cluster) => {
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
                <span className="stat">
                  {formatPercent(cluster.busyGpus / Math.max(1, cluster.gpus))}
                </span>{" "}
                busy ({formatInteger(cluster.busyGpus)} of {formatInteger(cluster.gpus)} GPUs
                running work, on any node)
              </p>
              <GpuBar split={cluster} clusterName={cluster.name} />
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
                    {formatInteger(cluster.drainingNodes)}
                  </dd>
                </div>
                <div>
                  <dt>Down nodes</dt>
                  <dd className={cluster.downNodes > 0 ? "health-bad" : ""}>
                    {formatInteger(cluster.downNodes)}
                  </dd>
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
