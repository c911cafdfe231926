"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { GpuBar } from "@/components/clusters/gpu-bar";
import { formatInteger, formatPercent } from "@/lib/format";
import { clusterLoadsQuery } from "@/lib/queries/clusters";

/** Every cluster's GPUs and waiting demand, a card each, polled (seeded by the server). */
export function ClusterLoads() {
  const { data: clusters } = useQuery(clusterLoadsQuery());
  if (!clusters) return <p>Loading…</p>;
  return (
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
              busy ({formatInteger(cluster.busyGpus)} of {formatInteger(cluster.gpus)} GPUs running
              work, on any node)
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
  );
}
