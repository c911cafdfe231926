// React Query options of the cluster pages (all clusters, a cluster's queue, its nodes): the
// server seeds them with lib/data's answer, the browser polls the API.
import { queryOptions } from "@tanstack/react-query";
import { getClusterNodes, getClusterQueue, listClusterLoads } from "@/lib/api-client/clusters";

/** How often the clusters page polls, in milliseconds. */
export const CLUSTER_LOADS_POLL_MS = 5000;

export function clusterLoadsQuery() {
  return queryOptions({
    queryKey: ["cluster-loads"],
    queryFn: listClusterLoads,
    refetchInterval: CLUSTER_LOADS_POLL_MS,
  });
}

/** How often a cluster's nodes page polls, in milliseconds. */
export const CLUSTER_NODES_POLL_MS = 5000;

export function clusterNodesQuery(cluster: string) {
  return queryOptions({
    queryKey: ["cluster-nodes", cluster],
    queryFn: () => getClusterNodes(cluster),
    refetchInterval: CLUSTER_NODES_POLL_MS,
  });
}

/** How often a cluster's queue page polls, in milliseconds. */
export const QUEUE_POLL_MS = 3000;

export function clusterQueueQuery(cluster: string) {
  return queryOptions({
    queryKey: ["cluster-queue", cluster],
    queryFn: () => getClusterQueue(cluster),
    refetchInterval: QUEUE_POLL_MS,
  });
}
