import type {
  ActiveRun,
  ClusterNodeState,
  NodeHealth,
  NodeSlice,
  PendingJob,
} from "../engine/types";
import type { Scenario, SimCluster, SimJob } from "./scenario";
import type { SchedulerView } from "./scheduler";
import { createLazyView, type ViewFixed, type ViewSources } from "./cluster-view";
import type { ClusterRecord, JobRecord, RunEndReason, RunRecord } from "./sim-types";
import { createUsageTracker } from "./usage-tracker";

/** A run in progress: the engine's view of it, its report record, and when its work is done. */
export type SimRun = {
  active: ActiveRun;
  record: RunRecord;
  jobIndex: number;
  expectedEndSec: number;
  /** Set when the run ends (completed, preempted, node down). */
  hasEnded: boolean;
};

/**
 * The mutable state of one simulated cluster: nodes and free GPUs, pending jobs, open runs, the
 * incremental usage window and every job's record. Only the simulator's event loop uses it; it
 * checks every decision (no GPU given twice, only healthy nodes, only pending jobs).
 */
export type SimState = ReturnType<typeof createSimState>;

/** Creates the state of `spec` at time 0 for the scenario's jobs on it, in submit order. */
export function createSimState(scenario: Scenario, spec: SimCluster, jobs: readonly SimJob[]) {
  const records: JobRecord[] = jobs.map((job) => ({
    job,
    state: "pending",
    firstStartSec: null,
    queuedSec: 0,
    preemptions: 0,
    endSec: null,
    runs: [],
  }));
  const remainingSec = jobs.map((job) => job.workSec);
  const queuedSinceSec = jobs.map((job) => job.submitSec);
  // Frozen, and replaced whenever a node changes, so that a scheduler may know the nodes it saw
  // by the array alone (`SchedulerView.cluster`).
  let nodes: readonly ClusterNodeState[] = Object.freeze(
    Array.from({ length: spec.nodes }, (_, index) =>
      Object.freeze({ index, gpus: spec.gpusPerNode, health: "healthy" as NodeHealth }),
    ),
  );
  const freeGpus = nodes.map((node) => node.gpus);
  // Free GPUs on healthy nodes, and draining nodes, counted as they change.
  let usableFreeGpus = spec.nodes * spec.gpusPerNode;
  let drainingNodes = 0;
  // Runs holding GPUs per node, counted: only a node going down needs the runs themselves.
  const runsOnNode = new Int32Array(nodes.length);
  const isDrainCounted = nodes.map(() => false);
  const live = new Map<string, SimRun>();
  // Each pending job's entry by job index (an array over the cluster's jobs), and the pending
  // jobs' indices by id in the order they were queued (a map of the pending jobs only).
  const pendingByIndex: (PendingJob | undefined)[] = new Array(jobs.length);
  const pendingIndexById = new Map<string, number>();
  const usage = createUsageTracker(scenario.lookbackSec);
  const cluster: ClusterRecord = {
    name: spec.name,
    totalGpus: spec.nodes * spec.gpusPerNode,
    healthChanges: [{ atSec: 0, upGpus: spec.nodes * spec.gpusPerNode }],
    automatedDrains: 0,
    schedulingPasses: 0,
    lastEventSec: 0,
  };
  let arrivals: PendingJob[] = [];
  let endedRuns: ActiveRun[] = [];
  let startedRuns: ActiveRun[] = [];

  function enqueue(index: number, nowSec: number): void {
    const job = jobs[index] as SimJob;
    records[index]!.state = "pending";
    queuedSinceSec[index] = nowSec;
    const entry: PendingJob = {
      id: job.id,
      budgetId: job.budgetId,
      userId: job.userId,
      gpus: job.gpus,
      minRuntimeSec: job.minRuntimeSec,
      isResumable: job.isResumable,
      priority: job.priority,
      submitSec: job.submitSec,
    };
    pendingByIndex[index] = entry;
    pendingIndexById.set(job.id, index);
    arrivals.push(entry);
  }

  function checkDrained(node: number, nowSec: number): void {
    if (nodes[node]?.health === "draining" && runsOnNode[node] === 0 && !isDrainCounted[node]) {
      isDrainCounted[node] = true;
      cluster.automatedDrains++;
      recordInService(nowSec);
    }
  }

  /** Records the GPUs in service from now: nodes not down, a draining node until it empties (ADR 099). */
  function recordInService(nowSec: number): void {
    let upGpus = 0;
    for (const n of nodes) {
      if (n.health !== "down" && !isDrainCounted[n.index]) upGpus += n.gpus;
    }
    cluster.healthChanges.push({ atSec: nowSec, upGpus });
  }

  function endRun(run: SimRun, reason: RunEndReason, nowSec: number, why?: unknown): void {
    const { active, record } = run;
    run.hasEnded = true;
    live.delete(active.id);
    endedRuns.push(active);
    record.endSec = nowSec;
    record.endReason = reason;
    if (why !== undefined) record.reason = why;
    for (const slice of active.placement) {
      freeGpus[slice.node] = (freeGpus[slice.node] ?? 0) + slice.gpus;
      if (nodes[slice.node]?.health === "healthy") usableFreeGpus += slice.gpus;
      runsOnNode[slice.node]! -= 1;
      checkDrained(slice.node, nowSec);
    }
    if (active.isAllocated) usage.addRate(active.budgetId, -active.gpus, nowSec);
    const jobRecord = records[run.jobIndex] as JobRecord;
    remainingSec[run.jobIndex] = Math.max(0, run.expectedEndSec - nowSec);
    if (reason === "completed") {
      jobRecord.state = "completed";
      jobRecord.endSec = nowSec;
      return;
    }
    if (reason === "preempted") jobRecord.preemptions++;
    if (jobRecord.job.isResumable) enqueue(run.jobIndex, nowSec);
    else {
      jobRecord.state = "preempted";
      jobRecord.endSec = nowSec;
    }
  }

  function setHealth(node: number, health: NodeHealth, nowSec: number): void {
    const state = nodes[node] as ClusterNodeState;
    if (state.health === health) return;
    const changed = nodes.slice();
    changed[node] = Object.freeze({ ...state, health });
    nodes = Object.freeze(changed);
    fixed.cluster = { ...fixed.cluster, nodes };
    const free = freeGpus[node] ?? 0;
    if (state.health === "healthy") usableFreeGpus -= free;
    if (health === "healthy") usableFreeGpus += free;
    if (state.health === "draining") drainingNodes -= 1;
    if (health === "draining") drainingNodes += 1;
    isDrainCounted[node] = false;
    recordInService(nowSec);
    if (health === "down") {
      // Live runs in start order, as they took their GPUs on the node.
      const onNode = [...live.values()].filter((run) =>
        run.active.placement.some((slice) => slice.node === node),
      );
      for (const run of onNode) endRun(run, "node-down", nowSec);
    }
    checkDrained(node, nowSec);
  }

  function startRun(
    jobId: string,
    placement: NodeSlice[],
    isAllocated: boolean,
    isProtected: boolean,
    nowSec: number,
  ): SimRun {
    const index = pendingIndexById.get(jobId);
    if (index === undefined) {
      throw new Error(`job ${jobId} is started at ${nowSec}s but is not pending`);
    }
    const job = jobs[index] as SimJob;
    let placed = 0;
    for (const slice of placement) {
      const free = freeGpus[slice.node];
      if (free === undefined || free < slice.gpus || nodes[slice.node]?.health !== "healthy") {
        throw new Error(
          `job ${job.id} placed on node ${slice.node} that cannot take ${slice.gpus} GPUs at ${nowSec}s`,
        );
      }
      placed += slice.gpus;
    }
    if (placed !== job.gpus)
      throw new Error(`job ${job.id} placed on ${placed} GPUs, wants ${job.gpus}`);
    const record = records[index] as JobRecord;
    pendingByIndex[index] = undefined;
    pendingIndexById.delete(jobId);
    record.queuedSec += nowSec - (queuedSinceSec[index] ?? nowSec);
    record.firstStartSec ??= nowSec;
    record.state = "running";
    const runId = `${job.id}#${record.runs.length + 1}`;
    // The run's own exact-size copy: the scheduler's array may reserve room for more slices, and
    // a year keeps a million of them.
    const slices = placement.slice();
    const protectedUntilSec = isProtected ? nowSec + job.minRuntimeSec : nowSec;
    const active: ActiveRun = {
      id: runId,
      jobId: job.id,
      budgetId: job.budgetId,
      userId: job.userId,
      gpus: job.gpus,
      placement: slices,
      startSec: nowSec,
      isAllocated,
      protectedUntilSec,
      isResumable: job.isResumable,
      priority: job.priority,
    };
    const runRecord: RunRecord = {
      runId,
      jobId: job.id,
      cluster: spec.name,
      budgetId: job.budgetId,
      startSec: nowSec,
      endSec: nowSec,
      placement: slices,
      gpus: job.gpus,
      isAllocated,
      protectedUntilSec,
      endReason: "running",
      // Set by a preemption: declared here, so that setting it later changes no record's shape.
      reason: undefined,
    };
    // A new array of exactly the runs: `push` would reserve room for 16 in each of a year's
    // million records, most of which keep one run.
    record.runs = [...record.runs, runRecord];
    const run: SimRun = {
      active,
      record: runRecord,
      jobIndex: index,
      expectedEndSec: nowSec + (remainingSec[index] ?? 0),
      hasEnded: false,
    };
    live.set(runId, run);
    startedRuns.push(active);
    for (const slice of placement) {
      freeGpus[slice.node] = (freeGpus[slice.node] ?? 0) - slice.gpus;
      usableFreeGpus -= slice.gpus;
      runsOnNode[slice.node]! += 1;
    }
    if (isAllocated) usage.addRate(job.budgetId, job.gpus, nowSec);
    return run;
  }

  const fixed: ViewFixed = {
    cluster: {
      name: spec.name,
      nodes,
      lookbackSec: scenario.lookbackSec,
      maxMinRuntimeSec: scenario.maxMinRuntimeSec,
    },
    tree: scenario.tree,
    freeGpus,
  };
  const lists: ViewSources = {
    listPending: () => Array.from(pendingIndexById.values(), (index) => pendingByIndex[index]!),
    listRunning: () => Array.from(live.values(), (run) => run.active),
    snapshotUsage: (atSec) => usage.snapshot(atSec),
    usageAt: (leafId, atSec) => usage.usageAt(leafId, atSec),
    usagesAt: (leafIds, atSec, into) => usage.usagesAt(leafIds, atSec, into),
  };

  function view(nowSec: number): SchedulerView {
    const deltas = { newlyPending: arrivals, runsStarted: startedRuns, runsEnded: endedRuns };
    arrivals = [];
    startedRuns = [];
    endedRuns = [];
    return createLazyView(nowSec, fixed, deltas, usableFreeGpus, lists);
  }

  function finish(endSec: number): JobRecord[] {
    for (const [index, record] of records.entries()) {
      if (
        record.state === "pending" &&
        record.job.submitSec <= endSec &&
        pendingByIndex[index] !== undefined
      ) {
        record.queuedSec += endSec - (queuedSinceSec[index] ?? endSec);
      }
    }
    for (const run of live.values()) run.record.endSec = endSec;
    return records.filter((record) => record.job.submitSec <= endSec);
  }

  return {
    cluster,
    /** Whether a node is draining. */
    isDraining: (): boolean => drainingNodes > 0,
    live,
    /** Jobs waiting to start. */
    pendingCount: (): number => pendingIndexById.size,
    records,
    enqueue,
    endRun,
    setHealth,
    startRun,
    view,
    finish,
  };
}
