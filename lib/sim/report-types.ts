/** Wait figures of one job class, seconds; a job that never started counts up to the horizon. */
export type ClassSummary = { jobs: number; waitP50Sec: number; waitP90Sec: number };

/** One leaf budget over the whole simulation, all clusters (docs/fulfilment.md). */
export type BudgetSummary = {
  path: string;
  effectiveShare: number;
  entitledGpuHours: number;
  receivedGpuHours: number;
  allocatedGpuHours: number;
  unallocatedGpuHours: number;
  /**
   * min(1, received / entitled) over the whole run (docs/fulfilment.md); null when the budget
   * was entitled to nothing (no demand).
   */
  fulfilment: number | null;
  /** The stricter hour-by-hour figure: sum over hours of min(received, entitled) / entitled. */
  hourlyFulfilment: number | null;
  preemptions: number;
  /** Extra to docs/simulator.md: capacity poured down by weight, capped by demand (docs/fulfilment.md). */
  workConservingGpuHours: number;
  /** Extra: sum of min(received, work-conserving) / sum of work-conserving, per hour. */
  workConservingFulfilment: number | null;
};

/** One run as the report shows it. */
export type ReportRun = {
  startSec: number;
  endSec: number;
  nodes: number[];
  gpus: number;
  allocated: boolean;
  protectedUntilSec: number;
  endReason: string;
  reason?: unknown;
};

/** One job as the report shows it. */
export type ReportJob = {
  id: string;
  state: string;
  /** First start minus submit; null if it never started. */
  waitSec: number | null;
  queuedSec: number;
  preemptions: number;
  runs: ReportRun[];
};

/** The simulation report of one scheduler (docs/simulator.md). Times in seconds from the start. */
export type SimulationReport = {
  scheduler: string;
  horizonSec: number;
  /** Busy / available GPU-seconds (available: nodes in service: not down, not drained; ADR 099). */
  utilisation: number;
  /** Unallocated / all granted GPU-seconds. */
  unallocatedShare: number;
  /**
   * Over all funded leaves: sum of min(received, entitled) / sum of entitled (docs/fulfilment.md);
   * null when no leaf was owed anything (no allocated demand), as a budget's is.
   */
  fulfilment: number | null;
  /** The hour-by-hour figure over all leaves and clusters; null as `fulfilment`. */
  hourlyFulfilment: number | null;
  /** Extra to docs/simulator.md: fulfilment against the work-conserving entitlement; null as `fulfilment`. */
  workConservingFulfilment: number | null;
  preemptions: number;
  automatedDrains: number;
  classes: Record<string, ClassSummary>;
  budgets: BudgetSummary[];
  jobs: ReportJob[];
};
