import type { Metadata } from "next";
import { ClusterLoads } from "@/components/clusters/cluster-loads";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { listClusterLoads } from "@/lib/data/queue";
import { clusterLoadsQuery } from "@/lib/queries/clusters";

export const metadata: Metadata = { title: "Clusters" };

export default async function ClustersPage() {
  const clusters = await listClusterLoads();
  return (
    <>
      <div className="page-head">
        <h1>Clusters</h1>
        <p className="muted">
          Live: each cluster&apos;s GPUs in parts that add up to its total. On healthy nodes:
          running allocated (charged, protected) work, running unallocated (free) work, idle. Then
          every GPU of a draining node (busy or idle) and of a down node. Below, the demand waiting
          in each queue.
        </p>
      </div>
      <PrefetchedQueries seeds={[seedQuery(clusterLoadsQuery(), clusters)]}>
        <ClusterLoads />
      </PrefetchedQueries>
    </>
  );
}
