// One scrape: the database gauges are set afresh from a snapshot, then the registry is
// rendered in the Prometheus text format. When the database cannot be read, the in-process
// counters are still served and allot_metrics_database_up says 0.
import { GPU_STATES, getMetrics, type AllotMetrics, type GpuState } from "./registry";

type ClusterSample = {
  name: string;
  pendingJobs: number;
  pendingGpus: number;
  tickedAtSec: number | null;
} & Record<`${GpuState}Gpus`, number>;

export type GaugeSnapshot = {
  nowSec: number;
  clusters: readonly ClusterSample[];
  budgets: readonly {
    cluster: string;
    budget: string;
    usageRatio: number | null;
    rank: number | null;
    gpusHeld: number;
  }[];
  lastEventSec: ReadonlyMap<string, number>;
  /** Real time now, and each cluster's newest use of a cluster token (Unix seconds). */
  realNowSec: number;
  lastSeenSec: ReadonlyMap<string, number>;
};

const DATABASE_GAUGES = [
  "clusterGpus",
  "pendingJobs",
  "pendingGpus",
  "lastTick",
  "budgetUsageRatio",
  "budgetRank",
  "budgetGpusHeld",
  "lastEventAge",
  "lastSeenAge",
] as const satisfies readonly (keyof AllotMetrics)[];

/** Replaces every database gauge's series with the snapshot's (a removed cluster disappears). */
export function applySnapshot(metrics: AllotMetrics, snapshot: GaugeSnapshot | null): void {
  for (const key of DATABASE_GAUGES) metrics[key].reset();
  metrics.databaseUp.set(snapshot ? 1 : 0);
  if (!snapshot) return;
  for (const cluster of snapshot.clusters) {
    const labels = { cluster: cluster.name };
    for (const state of GPU_STATES) {
      metrics.clusterGpus.set({ ...labels, state }, cluster[`${state}Gpus`]);
    }
    metrics.pendingJobs.set(labels, cluster.pendingJobs);
    metrics.pendingGpus.set(labels, cluster.pendingGpus);
    if (cluster.tickedAtSec !== null) metrics.lastTick.set(labels, cluster.tickedAtSec);
    const lastEventSec = snapshot.lastEventSec.get(cluster.name);
    if (lastEventSec !== undefined) {
      metrics.lastEventAge.set(labels, Math.max(0, snapshot.nowSec - lastEventSec));
    }
    const lastSeenSec = snapshot.lastSeenSec.get(cluster.name);
    if (lastSeenSec !== undefined) {
      metrics.lastSeenAge.set(labels, Math.max(0, snapshot.realNowSec - lastSeenSec));
    }
  }
  for (const sample of snapshot.budgets) {
    const labels = { cluster: sample.cluster, budget: sample.budget };
    if (sample.usageRatio !== null && Number.isFinite(sample.usageRatio)) {
      metrics.budgetUsageRatio.set(labels, sample.usageRatio);
    }
    if (sample.rank !== null) {
      metrics.budgetRank.set(labels, sample.rank);
      metrics.budgetGpusHeld.set(labels, sample.gpusHeld);
    }
  }
}

/** The exposition text of one scrape; `load` reads the database (null: it could not). */
export async function renderMetrics(
  load: () => Promise<GaugeSnapshot | null>,
): Promise<{ text: string; contentType: string }> {
  const metrics = getMetrics();
  applySnapshot(metrics, await load());
  return { text: await metrics.registry.metrics(), contentType: metrics.registry.contentType };
}
