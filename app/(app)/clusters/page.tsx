import type { Metadata } from "next";
import { ClusterLoads } from "@/components/clusters/cluster-loads";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { listClusterLoads } from "@/lib/data/queue";
import { clusterLoadsQuery } from "@/lib/queries/clusters";
import { PageHead } from "@/components/layout/page-head";

export const metadata: Metadata = { title: "Clusters" };

export default async function ClustersPage() {
  const clusters = await listClusterLoads();
  return (
    <>
      <PageHead title="Clusters">
        <p className="muted">
          Live: each cluster&apos;s GPUs in parts that add up to its total. On healthy nodes:
          running allocated (charged, protected) work, running unallocated (free) work, idle. Then
          every GPU of a draining node (busy or idle) and of a down node. Below, the demand waiting
          in each queue.
        </p>
      </PageHead>
      <PrefetchedQueries seeds={[seedQuery(clusterLoadsQuery(), clusters)]}>
        <ClusterLoads />
      </PrefetchedQueries>
    </>
  );
}
