// Query options shared by the server prefetch (with the data layer as queryFn) and the
// browser's polling useQuery (with the API as queryFn).
import { queryOptions } from "@tanstack/react-query";
import type { ClusterQueue } from "@/lib/data/queue";

/** How often the queue page polls, in milliseconds. */
export const QUEUE_POLL_MS = 3000;

async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

export function clusterQueueQuery(cluster: string) {
  return queryOptions({
    queryKey: ["cluster-queue", cluster],
    queryFn: () => fetchJson<ClusterQueue>(`/api/v1/clusters/${encodeURIComponent(cluster)}/queue`),
    refetchInterval: QUEUE_POLL_MS,
  });
}
