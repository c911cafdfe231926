// Query options shared by the server prefetch (with the data layer's answer as the seed) and the
// browser's polling useQuery (with the API as queryFn).
import { queryOptions } from "@tanstack/react-query";
import { getClusterQueue } from "@/lib/api-client/clusters";

/** How often the queue page polls, in milliseconds. */
export const QUEUE_POLL_MS = 3000;

export function clusterQueueQuery(cluster: string) {
  return queryOptions({
    queryKey: ["cluster-queue", cluster],
    queryFn: () => getClusterQueue(cluster),
    refetchInterval: QUEUE_POLL_MS,
  });
}
