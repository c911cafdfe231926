// The browser's calls to the clusters routes and the health check.
import type { ClusterNodes } from "@/lib/data/nodes";
import type { ClusterLoad, ClusterQueue } from "@/lib/data/queue";
import { callApi, getJson } from "./request";

export function getClusterQueue(cluster: string): Promise<ClusterQueue> {
  return getJson<ClusterQueue>(`/api/v1/clusters/${encodeURIComponent(cluster)}/queue`);
}

export function getClusterNodes(cluster: string): Promise<ClusterNodes> {
  return getJson<ClusterNodes>(`/api/v1/clusters/${encodeURIComponent(cluster)}/nodes`);
}

type Health = { status: string; database: "ok" | "unreachable"; replica: string };

/** Whether the database answers; a 503 still carries the health body. Throws when unreachable. */
export async function getDatabaseHealth(): Promise<Health["database"]> {
  const result = await callApi<Health>("GET", "/api/v1/health");
  if (result.ok) return result.value.database;
  const body = result.error.details as Partial<Health> | undefined;
  if (body?.database) return body.database;
  throw result.error;
}

export async function listClusterLoads(): Promise<ClusterLoad[]> {
  return (await getJson<{ clusters: ClusterLoad[] }>("/api/v1/clusters")).clusters;
}
