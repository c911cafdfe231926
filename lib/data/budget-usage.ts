// What each budget used on each cluster over its lookback window: the usage the ranking uses,
// read from the ranking each tick stores (clusters.ranking), for the budget panel.
import "server-only";
import { getDb } from "./db/app-db";
import { readRanking } from "./tick/ranking";

export type ClusterUsage = {
  name: string;
  lookbackSec: number;
  /** Budget node id -> allocated GPU-hours charged to its subtree within the window. */
  usedGpuHoursById: Record<string, number>;
};

/** Every cluster's usage per budget node, by cluster name. */
export async function listBudgetUsage(): Promise<ClusterUsage[]> {
  const clusters = await getDb().cluster.findMany({
    select: { name: true, lookbackSec: true, ranking: true },
    orderBy: { name: "asc" },
  });
  return clusters.map((cluster) => ({
    name: cluster.name,
    lookbackSec: cluster.lookbackSec,
    usedGpuHoursById: Object.fromEntries(
      readRanking(cluster.ranking).map((row) => [row.id, row.usageGpuSeconds / 3600]),
    ),
  }));
}
