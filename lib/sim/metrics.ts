import { addToHours, HOUR_SEC, percentile, roundTo } from "./hourly";
import type { BudgetSummary, ClassSummary, ReportJob, SimulationReport } from "./report-types";
import type { Scenario } from "./scenario";
import type { ClusterRecord, JobRecord, SimulationResult } from "./sim-types";
import { computeEffectiveShares, listLeafIds } from "./tree-shares";

type LeafHours = { demand: Float64Array; received: Float64Array };
type LeafTotals = { allocatedSec: number; unallocatedSec: number; preemptions: number };

/**
 * Hourly fulfilment inputs of one cluster: per leaf, demand (GPU-seconds of its jobs pending or
 * running) and received (GPU-seconds run) in each hour, and the available capacity per hour.
 */
function collectHours(
  cluster: ClusterRecord,
  jobs: readonly JobRecord[],
  horizonSec: number,
): { capacity: Float64Array; leaves: Map<string, LeafHours> } {
  const hours = Math.max(1, Math.ceil(horizonSec / HOUR_SEC));
  const capacity = new Float64Array(hours);
  cluster.healthChanges.forEach((change, i) => {
    const next = cluster.healthChanges[i + 1]?.atSec ?? horizonSec;
    addToHours(capacity, change.atSec, Math.min(next, horizonSec), change.upGpus);
  });
  const leaves = new Map<string, LeafHours>();
  for (const record of jobs) {
    if (record.job.cluster !== cluster.name) continue;
    let leaf = leaves.get(record.job.budgetId);
    if (!leaf) {
      leaf = { demand: new Float64Array(hours), received: new Float64Array(hours) };
      leaves.set(record.job.budgetId, leaf);
    }
    addToHours(leaf.demand, record.job.submitSec, record.endSec ?? horizonSec, record.job.gpus);
    for (const run of record.runs) addToHours(leaf.received, run.startSec, run.endSec, run.gpus);
  }
  return { capacity, leaves };
}

function summariseClasses(
  jobs: readonly JobRecord[],
  horizonSec: number,
): Record<string, ClassSummary> {
  const waits = new Map<string, number[]>();
  for (const record of jobs) {
    const wait = (record.firstStartSec ?? horizonSec) - record.job.submitSec;
    const list = waits.get(record.job.jobClass) ?? [];
    list.push(wait);
    waits.set(record.job.jobClass, list);
  }
  const classes: Record<string, ClassSummary> = {};
  for (const name of [...waits.keys()].sort()) {
    const list = waits.get(name) ?? [];
    classes[name] = {
      jobs: list.length,
      waitP50Sec: roundTo(percentile(list, 0.5), 3),
      waitP90Sec: roundTo(percentile(list, 0.9), 3),
    };
  }
  return classes;
}

function toReportJob(record: JobRecord): ReportJob {
  return {
    id: record.job.id,
    state: record.state,
    waitSec:
      record.firstStartSec === null
        ? null
        : roundTo(record.firstStartSec - record.job.submitSec, 3),
    queuedSec: roundTo(record.queuedSec, 3),
    preemptions: record.preemptions,
    runs: record.runs.map((run) => ({
      startSec: roundTo(run.startSec, 3),
      endSec: roundTo(run.endSec, 3),
      nodes: run.placement.map((slice) => slice.node),
      gpus: run.gpus,
      allocated: run.isAllocated,
      protectedUntilSec: roundTo(run.protectedUntilSec, 3),
      endReason: run.endReason,
      ...(run.reason === undefined ? {} : { reason: run.reason }),
    })),
  };
}

/**
 * Builds the DESIGN section 6 report from a simulation's raw result: utilisation, unallocated
 * share, fulfilment (section 5, capped entitlement: min(share * capacity * 1 h, demand) per
 * cluster, leaf and hour), preemptions, drains, wait percentiles per class, per-budget hours and
 * every job with its runs. Ratios are rounded to 4 decimals, hours to 1, seconds to 3.
 *
 * @example JSON.stringify(buildReport(scenario, runSimulation(scenario, factory)))
 */
export function buildReport(scenario: Scenario, result: SimulationResult): SimulationReport {
  const { horizonSec, jobs } = result;
  const shares = computeEffectiveShares(scenario.tree);
  const leafIds = listLeafIds(scenario.tree);
  const totals = new Map<string, LeafTotals>(
    leafIds.map((id) => [id, { allocatedSec: 0, unallocatedSec: 0, preemptions: 0 }]),
  );
  let busySec = 0;
  let unallocatedSec = 0;
  let preemptions = 0;
  for (const record of jobs) {
    const total = totals.get(record.job.budgetId);
    preemptions += record.preemptions;
    if (total) total.preemptions += record.preemptions;
    for (const run of record.runs) {
      const gpuSec = run.gpus * (run.endSec - run.startSec);
      busySec += gpuSec;
      if (!run.isAllocated) unallocatedSec += gpuSec;
      if (total && run.isAllocated) total.allocatedSec += gpuSec;
      else if (total) total.unallocatedSec += gpuSec;
    }
  }
  const entitled = new Map<string, number>(leafIds.map((id) => [id, 0]));
  const fulfilled = new Map<string, number>(leafIds.map((id) => [id, 0]));
  let availableSec = 0;
  for (const cluster of result.clusters) {
    const { capacity, leaves } = collectHours(cluster, jobs, horizonSec);
    for (const value of capacity) availableSec += value;
    for (const [leafId, leaf] of leaves) {
      const share = shares.get(leafId) ?? 0;
      let leafEntitled = 0;
      let leafFulfilled = 0;
      for (let h = 0; h < capacity.length; h++) {
        const owed = Math.min(share * (capacity[h] ?? 0), leaf.demand[h] ?? 0);
        leafEntitled += owed;
        leafFulfilled += Math.min(leaf.received[h] ?? 0, owed);
      }
      entitled.set(leafId, (entitled.get(leafId) ?? 0) + leafEntitled);
      fulfilled.set(leafId, (fulfilled.get(leafId) ?? 0) + leafFulfilled);
    }
  }
  const budgets: BudgetSummary[] = leafIds.map((id) => {
    const total = totals.get(id) ?? { allocatedSec: 0, unallocatedSec: 0, preemptions: 0 };
    const owed = entitled.get(id) ?? 0;
    return {
      path: id,
      effectiveShare: roundTo(shares.get(id) ?? 0, 6),
      entitledGpuHours: roundTo(owed / HOUR_SEC, 1),
      receivedGpuHours: roundTo((total.allocatedSec + total.unallocatedSec) / HOUR_SEC, 1),
      allocatedGpuHours: roundTo(total.allocatedSec / HOUR_SEC, 1),
      unallocatedGpuHours: roundTo(total.unallocatedSec / HOUR_SEC, 1),
      fulfilment: owed > 0 ? roundTo((fulfilled.get(id) ?? 0) / owed, 4) : null,
      preemptions: total.preemptions,
    };
  });
  const entitledSum = [...entitled.values()].reduce((a, b) => a + b, 0);
  const fulfilledSum = [...fulfilled.values()].reduce((a, b) => a + b, 0);
  return {
    scheduler: result.scheduler,
    horizonSec: roundTo(horizonSec, 3),
    utilisation: availableSec > 0 ? roundTo(busySec / availableSec, 4) : 0,
    unallocatedShare: busySec > 0 ? roundTo(unallocatedSec / busySec, 4) : 0,
    fulfilment: entitledSum > 0 ? roundTo(fulfilledSum / entitledSum, 4) : 1,
    preemptions,
    automatedDrains: result.clusters.reduce((sum, cluster) => sum + cluster.automatedDrains, 0),
    classes: summariseClasses(jobs, horizonSec),
    budgets,
    jobs: jobs.map(toReportJob),
  };
}
