import { isAllocationDemand } from "../../lib/engine";
import { formatNumber, formatShare } from "../../lib/format";
import { inServiceSpans, spansByNode } from "../../lib/reports/in-service";
import type { Scenario, SimulationReport } from "../../lib/sim";
import { addToHours, HOUR_SEC, roundTo } from "../../lib/sim/hourly";
import { formatMarkdownTable } from "./markdown";
import type { BothReports } from "./report-tables";

/** Where a report's hourly entitlement went unmet, GPU-hours summed over clusters, leaves, hours. */
export type UnmetBreakdown = {
  entitledGpuHours: number;
  /** Entitled minus min(received, entitled), per leaf-hour. */
  unmetGpuHours: number;
  /** Unmet in hours when the cluster's GPUs were at least 95% busy. */
  unmetWhenBusyGpuHours: number;
  /** Entitled, and unmet, in hours when the leaf had used more than its share over the lookback. */
  entitledAboveWindowShareGpuHours: number;
  unmetAboveWindowShareGpuHours: number;
  /**
   * In hours with unmet entitlement on a cluster, GPU-hours that leaves received above their
   * hourly share (share x capacity): in unallocated runs; in allocated runs of leaves below their
   * share over the lookback (catching up); of leaves at or above it.
   */
  overShareUnallocatedGpuHours: number;
  overShareCatchingUpGpuHours: number;
  overShareAheadGpuHours: number;
  /** The part of the allocated over-share that protected runs held at least (no one may take it). */
  overShareProtectedGpuHours: number;
};

type LeafHours = {
  demand: Float64Array;
  allocated: Float64Array;
  /** Allocated GPU-seconds inside the runs' protected periods. */
  protectedAllocated: Float64Array;
  unallocated: Float64Array;
};

const BUSY_RATIO = 0.95;

/**
 * GPU-seconds of nodes in service in each hour (ADR 099), replaying the scenario's node events:
 * a draining node until the report's runs on it end, a down node not at all.
 */
function capacityByHour(
  scenario: Pick<Scenario, "clusters" | "nodeEvents" | "jobs">,
  report: Pick<SimulationReport, "jobs">,
  cluster: string,
  hours: number,
  horizonSec: number,
): Float64Array {
  const spec = scenario.clusters.find((c) => c.name === cluster);
  const capacity = new Float64Array(hours);
  if (!spec) return capacity;
  const onCluster = new Set(
    scenario.jobs.filter((job) => job.cluster === cluster).map((j) => j.id),
  );
  const spans = spansByNode(
    report.jobs.filter((job) => onCluster.has(job.id)).flatMap((job) => job.runs),
  );
  const events = scenario.nodeEvents
    .filter((event) => event.cluster === cluster)
    .sort((a, b) => a.atSec - b.atSec);
  for (let node = 0; node < spec.nodes; node++) {
    const changes = events
      .filter((event) => event.node === node)
      .map((event) => ({ atSec: event.atSec, health: event.state }));
    for (const span of inServiceSpans(changes, spans.get(node) ?? [])) {
      const startSec = Math.max(span.startSec, 0);
      addToHours(capacity, startSec, Math.min(span.endSec, horizonSec), spec.gpusPerNode);
    }
  }
  return capacity;
}

/** Per cluster and leaf, hourly demand (pending or running) and received GPU-seconds. */
function collectLeafHours(
  scenario: Pick<Scenario, "jobs">,
  report: Pick<SimulationReport, "jobs">,
  hours: number,
  horizonSec: number,
): Map<string, Map<string, LeafHours>> {
  const byCluster = new Map<string, Map<string, LeafHours>>();
  const jobs = new Map(scenario.jobs.map((job) => [job.id, job]));
  for (const reported of report.jobs) {
    const job = jobs.get(reported.id);
    if (!job) continue;
    const leaves = byCluster.get(job.cluster) ?? new Map<string, LeafHours>();
    byCluster.set(job.cluster, leaves);
    let leaf = leaves.get(job.budgetId);
    if (!leaf) {
      leaf = {
        demand: new Float64Array(hours),
        allocated: new Float64Array(hours),
        protectedAllocated: new Float64Array(hours),
        unallocated: new Float64Array(hours),
      };
      leaves.set(job.budgetId, leaf);
    }
    const hasLeft = reported.state === "completed" || reported.state === "preempted";
    const lastEndSec = Math.max(job.submitSec, ...reported.runs.map((run) => run.endSec));
    // Demand as the report counts it: jobs that ask for an allocation (ADR 092).
    if (isAllocationDemand(job.minRuntimeSec)) {
      addToHours(leaf.demand, job.submitSec, hasLeft ? lastEndSec : horizonSec, job.gpus);
    }
    for (const run of reported.runs) {
      if (!run.allocated) {
        addToHours(leaf.unallocated, run.startSec, run.endSec, run.gpus);
        continue;
      }
      addToHours(leaf.allocated, run.startSec, run.endSec, run.gpus);
      const protectedEndSec = Math.min(run.endSec, run.protectedUntilSec);
      addToHours(leaf.protectedAllocated, run.startSec, protectedEndSec, run.gpus);
    }
  }
  return byCluster;
}

/**
 * Breaks a report's unmet hourly entitlement (docs/fulfilment.md, capped: min(share x capacity, demand)
 * per cluster, leaf and hour) down by when it happened and who held the GPUs: whether the
 * cluster was busy, whether the short leaf had used more than its share over the lookback window
 * (so ranked low), and, in hours with unmet entitlement, who held GPUs above their hourly share.
 * Recomputed from the report's runs and the scenario, so `entitled - unmet` over `entitled`
 * equals the report's fulfilment.
 *
 * @example breakDownUnmet(scenario, reports.allocation).unmetGpuHours
 */
export function breakDownUnmet(
  scenario: Pick<Scenario, "clusters" | "nodeEvents" | "jobs" | "lookbackSec">,
  report: Pick<SimulationReport, "jobs" | "budgets" | "horizonSec">,
): UnmetBreakdown {
  const { horizonSec } = report;
  const hours = Math.max(1, Math.ceil(horizonSec / HOUR_SEC));
  const windowHours = Math.max(1, Math.round(scenario.lookbackSec / HOUR_SEC));
  const shares = new Map(report.budgets.map((budget) => [budget.path, budget.effectiveShare]));
  const sums: UnmetBreakdown = {
    entitledGpuHours: 0,
    unmetGpuHours: 0,
    unmetWhenBusyGpuHours: 0,
    entitledAboveWindowShareGpuHours: 0,
    unmetAboveWindowShareGpuHours: 0,
    overShareUnallocatedGpuHours: 0,
    overShareCatchingUpGpuHours: 0,
    overShareAheadGpuHours: 0,
    overShareProtectedGpuHours: 0,
  };
  for (const [cluster, leaves] of collectLeafHours(scenario, report, hours, horizonSec)) {
    const capacity = capacityByHour(scenario, report, cluster, hours, horizonSec);
    const usedSec = new Map([...leaves.keys()].map((id) => [id, 0]));
    let windowCapacitySec = 0;
    for (let h = 0; h < hours; h++) {
      const capacitySec = capacity[h] ?? 0;
      let busySec = 0;
      for (const leaf of leaves.values())
        busySec += (leaf.allocated[h] ?? 0) + (leaf.unallocated[h] ?? 0);
      const isBusy = capacitySec > 0 && busySec >= BUSY_RATIO * capacitySec;
      const rows = [...leaves].map(([id, leaf]) => {
        const shareSec = (shares.get(id) ?? 0) * capacitySec;
        const allocatedSec = leaf.allocated[h] ?? 0;
        const unprotectedSec = allocatedSec - (leaf.protectedAllocated[h] ?? 0);
        const receivedSec = allocatedSec + (leaf.unallocated[h] ?? 0);
        const entitledSec = Math.min(shareSec, leaf.demand[h] ?? 0);
        const windowShareSec = (shares.get(id) ?? 0) * windowCapacitySec;
        return {
          shareSec,
          allocatedSec,
          unprotectedSec,
          receivedSec,
          entitledSec,
          unmetSec: entitledSec - Math.min(receivedSec, entitledSec),
          isAboveWindowShare: windowShareSec > 0 && (usedSec.get(id) ?? 0) > windowShareSec,
        };
      });
      let hourUnmetSec = 0;
      for (const row of rows) {
        sums.entitledGpuHours += row.entitledSec / HOUR_SEC;
        sums.unmetGpuHours += row.unmetSec / HOUR_SEC;
        hourUnmetSec += row.unmetSec;
        if (isBusy) sums.unmetWhenBusyGpuHours += row.unmetSec / HOUR_SEC;
        if (row.isAboveWindowShare) {
          sums.entitledAboveWindowShareGpuHours += row.entitledSec / HOUR_SEC;
          sums.unmetAboveWindowShareGpuHours += row.unmetSec / HOUR_SEC;
        }
      }
      if (hourUnmetSec > 0) {
        for (const row of rows) {
          const overSec = Math.max(0, row.receivedSec - row.shareSec);
          const allocatedOverSec = Math.max(0, row.allocatedSec - row.shareSec);
          const protectedOverSec =
            allocatedOverSec - Math.min(allocatedOverSec, row.unprotectedSec);
          sums.overShareProtectedGpuHours += protectedOverSec / HOUR_SEC;
          sums.overShareUnallocatedGpuHours += (overSec - allocatedOverSec) / HOUR_SEC;
          if (row.isAboveWindowShare) sums.overShareAheadGpuHours += allocatedOverSec / HOUR_SEC;
          else sums.overShareCatchingUpGpuHours += allocatedOverSec / HOUR_SEC;
        }
      }
      // Slide the window: add this hour, drop the one that falls out of it.
      const leavingHour = h - windowHours;
      windowCapacitySec += capacitySec - (leavingHour >= 0 ? (capacity[leavingHour] ?? 0) : 0);
      for (const [id, leaf] of leaves) {
        const leaving = leavingHour >= 0 ? (leaf.allocated[leavingHour] ?? 0) : 0;
        usedSec.set(id, (usedSec.get(id) ?? 0) + (leaf.allocated[h] ?? 0) - leaving);
      }
    }
  }
  return sums;
}

/** {@link breakDownUnmet} for both schedulers as a markdown table. */
export function formatUnmetTable(
  scenario: Pick<Scenario, "clusters" | "nodeEvents" | "jobs" | "lookbackSec">,
  reports: BothReports,
): string {
  const [baseline, allocation] = [reports.baseline, reports.allocation].map((report) =>
    breakDownUnmet(scenario, report),
  ) as [UnmetBreakdown, UnmetBreakdown];
  const ratio = (value: number, of: number) => formatShare(of > 0 ? value / of : null, "-");
  const overShare = (b: UnmetBreakdown) =>
    b.overShareUnallocatedGpuHours + b.overShareCatchingUpGpuHours + b.overShareAheadGpuHours;
  const row = (label: string, value: (b: UnmetBreakdown) => string) => [
    label,
    value(baseline),
    value(allocation),
  ];
  const rows = [
    // Rounded to 4 decimals first, as the report rounds its fulfilment, so the two print alike.
    row("hourly fulfilment, recomputed (check)", (b) =>
      formatShare(
        b.entitledGpuHours > 0
          ? roundTo((b.entitledGpuHours - b.unmetGpuHours) / b.entitledGpuHours, 4)
          : null,
        "-",
      ),
    ),
    row("entitled GPU-h", (b) => formatNumber(b.entitledGpuHours)),
    row("unmet GPU-h (entitled - min(received, entitled))", (b) => formatNumber(b.unmetGpuHours)),
    row("unmet in hours the cluster was >= 95% busy", (b) =>
      ratio(b.unmetWhenBusyGpuHours, b.unmetGpuHours),
    ),
    row("entitled in hours the leaf was above its lookback share", (b) =>
      ratio(b.entitledAboveWindowShareGpuHours, b.entitledGpuHours),
    ),
    row("unmet rate in those hours", (b) =>
      ratio(b.unmetAboveWindowShareGpuHours, b.entitledAboveWindowShareGpuHours),
    ),
    row("unmet rate in the other hours", (b) =>
      ratio(
        b.unmetGpuHours - b.unmetAboveWindowShareGpuHours,
        b.entitledGpuHours - b.entitledAboveWindowShareGpuHours,
      ),
    ),
    row("GPU-h held above hourly share while others were short", (b) => formatNumber(overShare(b))),
    row("of which unallocated runs", (b) => ratio(b.overShareUnallocatedGpuHours, overShare(b))),
    row("of which leaves below their lookback share", (b) =>
      ratio(b.overShareCatchingUpGpuHours, overShare(b)),
    ),
    row("of which leaves at or above it", (b) => ratio(b.overShareAheadGpuHours, overShare(b))),
    row("allocated part held in protected runs (at least)", (b) =>
      ratio(b.overShareProtectedGpuHours, b.overShareCatchingUpGpuHours + b.overShareAheadGpuHours),
    ),
  ];
  return formatMarkdownTable(["", "baseline", "allocation"], rows, ["left", "right", "right"]);
}
