import "server-only";
import { getDb } from "./db/app-db";

export type ClusterSummary = {
  name: string;
  gpuType: string;
  /** builtin (the demo executor) or slurm (the bridge; jobs come from sbatch). */
  executor: "builtin" | "slurm";
  nodes: number;
  gpus: number;
  /** The largest node's GPUs: jobs of more take whole nodes of this size. */
  nodeSizeGpus: number;
  healthyNodes: number;
  healthyGpus: number;
  drainingNodes: number;
  downNodes: number;
  lookbackSec: number;
  maxMinRuntimeSec: number;
};

export async function listClusters(): Promise<ClusterSummary[]> {
  const clusters = await getDb().cluster.findMany({
    select: {
      name: true,
      gpuType: true,
      executor: true,
      lookbackSec: true,
      maxMinRuntimeSec: true,
      nodes: { select: { gpus: true, health: true } },
    },
    orderBy: { name: "asc" },
  });
  return clusters.map(({ nodes, ...cluster }) => {
    const healthy = nodes.filter((node) => node.health === "healthy");
    return {
      ...cluster,
      nodes: nodes.length,
      gpus: nodes.reduce((sum, node) => sum + node.gpus, 0),
      nodeSizeGpus: Math.max(0, ...nodes.map((node) => node.gpus)),
      healthyNodes: healthy.length,
      healthyGpus: healthy.reduce((sum, node) => sum + node.gpus, 0),
      drainingNodes: nodes.filter((node) => node.health === "draining").length,
      downNodes: nodes.filter((node) => node.health === "down").length,
    };
  });
}

/** Database reachability, for the health check. */
export async function pingDatabase(): Promise<boolean> {
  try {
    await getDb().$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}
