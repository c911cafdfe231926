import {
  computeFulfilment,
  computeHourEntitlement,
  getBudgetNode,
  isAllocationDemand,
  validateBudgetTree,
  type BudgetTree,
  type HourFlows,
} from "../engine";
import {
  createHourBins,
  HOUR_SEC,
  percentile,
  roundFulfilment,
  roundTo,
  type HourBins,
} from "./hourly";
import type { BudgetSummary, ClassSummary, ReportJob, SimulationReport } from "./report-types";
import type { Scenario } from "./scenario";
import type { ClusterRecord, JobRecord, SimulationResult } from "./sim-types";

type LeafHours = { demand: Float64Array; allocated: Float64Array; unallocated: Float64Array };
type LeafTotals = { allocatedSec: number; unallocatedSec: number; preemptions: number };
/** Per leaf over the period, GPU-hours: capped and work-conserving entitlement and what of each was met. */
type Owed = { entitled: number; fulfilled: number; workConserving: number; workFulfilled: number };

/**
 * Hourly inputs of one cluster: per leaf, demand (GPU-seconds of its jobs that ask for an
 * allocation, pending or running) and received (allocated and unallocated GPU-seconds run) in
 * each hour, and the available capacity (GPU-seconds of nodes in service, ADR 099) per hour.
 */
function collectHours(
  cluster: ClusterRecord,
  jobs: readonly JobRecord[],
  horizonSec: number,
): { capacity: Float64Array; leaves: Map<string, LeafHours> } {
  const hours = Math.max(1, Math.ceil(horizonSec / HOUR_SEC));
  const capacity = createHourBins(hours);
  cluster.healthChanges.forEach((change, i) => {
    const next = cluster.healthChanges[i + 1]?.atSec ?? horizonSec;
    capacity.add(change.atSec, Math.min(next, horizonSec), change.upGpus);
  });
  const leaves = new Map<
    string,
    { demand: HourBins; allocated: HourBins; unallocated: HourBins }
  >();
  for (const record of jobs) {
    if (record.job.cluster !== cluster.name) continue;
    let leaf = leaves.get(record.job.budgetId);
    if (!leaf) {
      const make = () => createHourBins(hours);
      leaf = { demand: make(), allocated: make(), unallocated: make() };
      leaves.set(record.job.budgetId, leaf);
    }
    if (isAllocationDemand(record.job.minRuntimeSec)) {
      leaf.demand.add(record.job.submitSec, record.endSec ?? horizonSec, record.job.gpus);
    }
    for (const run of record.runs) {
      (run.isAllocated ? leaf.allocated : leaf.unallocated).add(run.startSec, run.endSec, run.gpus);
    }
  }
  const finished = new Map<string, LeafHours>();
  for (const [id, leaf] of leaves) {
    finished.set(id, {
      demand: leaf.demand.finish(),
      allocated: leaf.allocated.finish(),
      unallocated: leaf.unallocated.finish(),
    });
  }
  return { capacity: capacity.finish(), leaves: finished };
}

/** Adds one cluster's hours to `owed`, through the engine's hourly entitlement (docs/fulfilment.md). */
function addEntitlement(
  tree: BudgetTree,
  cluster: ClusterRecord,
  jobs: readonly JobRecord[],
  horizonSec: number,
  owed: Map<string, Owed>,
): void {
  const { capacity, leaves } = collectHours(cluster, jobs, horizonSec);
  const leafIds = [...leaves.keys()];
  for (let h = 0; h < capacity.length; h++) {
    const flows: HourFlows = {
      demandGpuHours: {},
      receivedAllocatedGpuHours: {},
      receivedUnallocatedGpuHours: {},
    };
    let hasDemand = false;
    for (const id of leafIds) {
      const leaf = leaves.get(id) as LeafHours;
      const demand = (leaf.demand[h] ?? 0) / HOUR_SEC;
      if (demand <= 0) continue;
      hasDemand = true;
      flows.demandGpuHours[id] = demand;
      flows.receivedAllocatedGpuHours[id] = (leaf.allocated[h] ?? 0) / HOUR_SEC;
      flows.receivedUnallocatedGpuHours[id] = (leaf.unallocated[h] ?? 0) / HOUR_SEC;
    }
    if (!hasDemand) continue;
    const rows = computeHourEntitlement(tree, (capacity[h] ?? 0) / HOUR_SEC, flows);
    for (const row of rows) {
      if (flows.demandGpuHours[row.id] === undefined) continue;
      const sum = owed.get(row.id) ?? {
        entitled: 0,
        fulfilled: 0,
        workConserving: 0,
        workFulfilled: 0,
      };
      sum.entitled += row.entitledGpuHours;
      sum.fulfilled += row.fulfilledGpuHours;
      sum.workConserving += row.workConservingGpuHours;
      sum.workFulfilled += Math.min(row.receivedGpuHours, row.workConservingGpuHours);
      owed.set(row.id, sum);
    }
  }
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
 * Builds the simulation report (docs/simulator.md, "The report") from a simulation's raw
 * result: utilisation, unallocated share, fulfilment over the period and hour by hour
 * (docs/fulfilment.md: capped entitlement min(share * capacity * 1 h, demand) per cluster, leaf
 * and hour through the engine's `computeHourEntitlement`; also the work-conserving entitlement
 * as extra fields), preemptions, drains, wait percentiles per class, per-budget hours and every
 * job with its runs. Ratios are rounded to 4 decimals, hours to 1, seconds to 3.
 *
 * @example JSON.stringify(buildReport(scenario, runSimulation(scenario, factory)))
 */
export function buildReport(scenario: Scenario, result: SimulationResult): SimulationReport {
  const { horizonSec, jobs } = result;
  const checked = validateBudgetTree(scenario.tree);
  if (!checked.ok) throw new Error("buildReport: the scenario's budget tree is invalid");
  const tree = checked.value;
  const leafIds = tree.nodes.filter((node) => node.isLeaf).map((node) => node.id);
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
  const owed = new Map<string, Owed>();
  let availableSec = 0;
  for (const cluster of result.clusters) {
    addEntitlement(tree, cluster, jobs, horizonSec, owed);
    for (const change of cluster.healthChanges.entries()) {
      const [i, { atSec, upGpus }] = change;
      const next = Math.min(cluster.healthChanges[i + 1]?.atSec ?? horizonSec, horizonSec);
      if (next > atSec) availableSec += upGpus * (next - atSec);
    }
  }
  const none: Owed = { entitled: 0, fulfilled: 0, workConserving: 0, workFulfilled: 0 };
  const received = (total: LeafTotals) => (total.allocatedSec + total.unallocatedSec) / HOUR_SEC;
  const budgets: BudgetSummary[] = leafIds.map((id) => {
    const total = totals.get(id) ?? { allocatedSec: 0, unallocatedSec: 0, preemptions: 0 };
    const leaf = owed.get(id) ?? none;
    const fulfilment = computeFulfilment([
      { receivedGpuHours: received(total), entitledGpuHours: leaf.entitled },
    ]);
    return {
      path: id,
      effectiveShare: roundTo(getBudgetNode(tree, id)?.effectiveShare ?? 0, 6),
      entitledGpuHours: roundTo(leaf.entitled, 1),
      receivedGpuHours: roundTo(received(total), 1),
      allocatedGpuHours: roundTo(total.allocatedSec / HOUR_SEC, 1),
      unallocatedGpuHours: roundTo(total.unallocatedSec / HOUR_SEC, 1),
      fulfilment: fulfilment === null ? null : roundFulfilment(fulfilment, 4),
      hourlyFulfilment:
        leaf.entitled > 0 ? roundFulfilment(leaf.fulfilled / leaf.entitled, 4) : null,
      preemptions: total.preemptions,
      workConservingGpuHours: roundTo(leaf.workConserving, 1),
      workConservingFulfilment:
        leaf.workConserving > 0 ? roundTo(leaf.workFulfilled / leaf.workConserving, 4) : null,
    };
  });
  const labFulfilment = computeFulfilment(
    leafIds.map((id) => ({
      receivedGpuHours: received(totals.get(id)!),
      entitledGpuHours: owed.get(id)?.entitled ?? 0,
    })),
  );
  const sums = { ...none };
  for (const leaf of owed.values()) {
    sums.entitled += leaf.entitled;
    sums.fulfilled += leaf.fulfilled;
    sums.workConserving += leaf.workConserving;
    sums.workFulfilled += leaf.workFulfilled;
  }
  return {
    scheduler: result.scheduler,
    horizonSec: roundTo(horizonSec, 3),
    utilisation: availableSec > 0 ? roundTo(busySec / availableSec, 4) : 0,
    unallocatedShare: busySec > 0 ? roundTo(unallocatedSec / busySec, 4) : 0,
    fulfilment: labFulfilment === null ? null : roundFulfilment(labFulfilment, 4),
    hourlyFulfilment: sums.entitled > 0 ? roundFulfilment(sums.fulfilled / sums.entitled, 4) : null,
    workConservingFulfilment:
      sums.workConserving > 0 ? roundFulfilment(sums.workFulfilled / sums.workConserving, 4) : null,
    preemptions,
    automatedDrains: result.clusters.reduce((sum, cluster) => sum + cluster.automatedDrains, 0),
    classes: summariseClasses(jobs, horizonSec),
    budgets,
    jobs: jobs.map(toReportJob),
  };
}
