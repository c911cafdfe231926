// What the Prometheus gauges show, read from the database at each scrape (GET /metrics), so
// that two replicas behind one balancer report the same values.
import "server-only";
import { getDb } from "./db/app-db";
import type { Db } from "./db/client";
import { getNow } from "./db/clock";
import { toSec } from "./tick/load-state";
import { listClusterLoads, type ClusterLoad } from "./queue";
import { readRanking } from "./tick/ranking";
import { PERSON_EVENT_PREFIX } from "../validation/executor";

export type BudgetSample = {
  cluster: string;
  /** The budget's path, e.g. "lab/nlp/lm-pretrain". */
  budget: string;
  usageRatio: number | null;
  rank: number | null;
  gpusHeld: number;
};

export type MetricsSnapshot = {
  nowSec: number;
  clusters: ClusterLoad[];
  budgets: BudgetSample[];
  /** Cluster name -> the newest executor event's receipt (app clock, Unix seconds). */
  lastEventSec: Map<string, number>;
  /** Real time now (Unix seconds): token uses are kept in real time, not the app clock's. */
  realNowSec: number;
  /** Cluster name -> the newest use of one of its cluster tokens (real time, Unix seconds). */
  lastSeenSec: Map<string, number>;
};

/**
 * Each cluster's newest executor event, a person's node health change left out: one query, one
 * short read per cluster down the (clusterId, receivedAt) index, however long the table.
 */
async function newestEvents(db: Db): Promise<{ clusterId: string; receivedAt: Date }[]> {
  return db.$queryRaw`
    SELECT c.id AS "clusterId", e."receivedAt"
      FROM clusters c
      CROSS JOIN LATERAL (
        SELECT "receivedAt" FROM executor_events
         WHERE "clusterId" = c.id AND "eventId" NOT LIKE ${`${PERSON_EVENT_PREFIX}%`}
         ORDER BY "receivedAt" DESC LIMIT 1) e`;
}

export async function loadMetricsSnapshot(): Promise<MetricsSnapshot> {
  const db = getDb();
  const [clusters, rankings, held, lastEvents, lastUses, now] = await Promise.all([
    listClusterLoads(),
    db.cluster.findMany({ select: { id: true, name: true, ranking: true } }),
    db.run.groupBy({
      by: ["clusterId", "budgetId"],
      where: { endedAt: null },
      _sum: { gpus: true },
    }),
    newestEvents(db),
    db.apiToken.groupBy({
      by: ["clusterId"],
      where: { kind: "cluster", lastUsedAt: { not: null } },
      _max: { lastUsedAt: true },
    }),
    getNow(db),
  ]);
  const nameById = new Map(rankings.map((cluster) => [cluster.id, cluster.name]));
  const heldBy = new Map(
    held.map((row) => [`${row.clusterId}|${row.budgetId}`, row._sum.gpus ?? 0] as const),
  );
  const budgets: BudgetSample[] = [];
  for (const cluster of rankings) {
    for (const row of readRanking(cluster.ranking)) {
      if (row.usageRatio === null && row.rank === null && !row.isLeaf) continue;
      budgets.push({
        cluster: cluster.name,
        // The root's path is "", which Prometheus reads as no label: it goes by its name.
        budget: row.path === "" ? row.name : row.path,
        usageRatio: row.usageRatio,
        rank: row.rank,
        gpusHeld: row.isLeaf ? (heldBy.get(`${cluster.id}|${row.id}`) ?? 0) : 0,
      });
    }
  }
  const lastEventSec = new Map<string, number>();
  for (const row of lastEvents) {
    const name = nameById.get(row.clusterId);
    if (name) lastEventSec.set(name, toSec(row.receivedAt));
  }
  const lastSeenSec = new Map<string, number>();
  for (const row of lastUses) {
    const name = row.clusterId ? nameById.get(row.clusterId) : undefined;
    if (name && row._max.lastUsedAt) lastSeenSec.set(name, toSec(row._max.lastUsedAt));
  }
  return {
    nowSec: toSec(now),
    clusters,
    budgets,
    lastEventSec,
    realNowSec: Math.floor(Date.now() / 1000),
    lastSeenSec,
  };
}
