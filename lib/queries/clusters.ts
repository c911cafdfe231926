// React Query options of the clusters page: every cluster's GPUs, polled.
import { queryOptions } from "@tanstack/react-query";
import { listClusterLoads } from "@/lib/api-client/clusters";

/** How often the clusters page polls, in milliseconds. */
export const CLUSTER_LOADS_POLL_MS = 5000;

export function clusterLoadsQuery() {
  return queryOptions({
    queryKey: ["cluster-loads"],
    queryFn: listClusterLoads,
    refetchInterval: CLUSTER_LOADS_POLL_MS,
  });
}
