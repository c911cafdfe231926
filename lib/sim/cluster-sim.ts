import type { ActiveRun, ClusterNodeState, PendingJob } from "@/lib/engine/types";
import { createEventQueue } from "./event-queue";
import type { Scenario, SimCluster, SimJob } from "./scenario";
import type { SchedulerFactory, SchedulerPlan, SchedulerView } from "./scheduler";
import type { ClusterRecord, JobRecord, RunEndReason, RunRecord } from "./sim-types";
import { createUsageTracker } from "./usage-tracker";

/** Options of one cluster's simulation. */
export type ClusterSimOptions = {
  /** Stop here (seconds) instead of the scenario's horizon; runs then still running stay open. */
  untilSec?: number | null;
  /** Called now and then with the clock (seconds), for progress display. */
  onProgress?: (nowSec: number) => void;
};

/** The outcome of one cluster, and the scheduler's view at the last moment simulated. */
export type ClusterSimResult = {
  schedulerName: string;
  records: JobRecord[];
  cluster: ClusterRecord;
  view: SchedulerView;
};

type LiveRun = { active: ActiveRun; record: RunRecord; jobIndex: number; expectedEndSec: number };

/**
 * Simulates one cluster: a virtual clock that jumps from event to event (arrival, completion,
 * end of a protected period, node health change, scheduler wake-up) and runs one scheduling pass
 * per moment at which something changed. Clusters are independent (jobs, usage and ranks are per
 * cluster), so a scenario is simulated one cluster at a time.
 *
 * @example simulateCluster(scenario, scenario.clusters[0], createBaselineScheduler)
 */
export function simulateCluster(
  scenario: Scenario,
  spec: SimCluster,
  factory: SchedulerFactory,
  options: ClusterSimOptions = {},
): ClusterSimResult {
  const scheduler = factory(scenario, spec);
  const stopSec = options.untilSec ?? scenario.horizonSec ?? Infinity;
  const jobs: SimJob[] = scenario.jobs.filter((job) => job.cluster === spec.name);
  const records: JobRecord[] = jobs.map((job) => ({
    job,
    state: "pending",
    firstStartSec: null,
    queuedSec: 0,
    preemptions: 0,
    endSec: null,
    runs: [],
  }));
  const jobIndexById = new Map(jobs.map((job, i) => [job.id, i]));
  const remainingSec = jobs.map((job) => job.workSec);
  const queuedSinceSec = jobs.map((job) => job.submitSec);
  const nodes: ClusterNodeState[] = Array.from({ length: spec.nodes }, (_, index) => ({
    index,
    gpus: spec.gpusPerNode,
    health: "healthy",
  }));
  const freeGpus = nodes.map((node) => node.gpus);
  const runsOnNode = nodes.map(() => new Set<LiveRun>());
  const isDrainCounted = nodes.map(() => false);
  const live = new Map<string, LiveRun>();
  const pending = new Map<number, PendingJob>();
  const usage = createUsageTracker(scenario.lookbackSec);
  const events = createEventQueue();
  const nodeEvents = scenario.nodeEvents.filter((event) => event.cluster === spec.name);
  const cluster: ClusterRecord = {
    name: spec.name,
    totalGpus: spec.nodes * spec.gpusPerNode,
    healthChanges: [{ atSec: 0, upGpus: spec.nodes * spec.gpusPerNode }],
    automatedDrains: 0,
    schedulingPasses: 0,
    lastEventSec: 0,
  };
  jobs.forEach((job, i) => events.push({ atSec: job.submitSec, kind: "arrival", ref: i }));
  nodeEvents.forEach((event, i) => events.push({ atSec: event.atSec, kind: "nodeHealth", ref: i }));
  const liveByRef: LiveRun[] = [];
  let arrivals: PendingJob[] = [];
  let nowSec = 0;
  let wakeSec = Infinity;
  let passCount = 0;

  function enqueue(index: number): void {
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
    pending.set(index, entry);
    arrivals.push(entry);
  }

  function endRun(run: LiveRun, reason: RunEndReason, why?: unknown): void {
    const { active, record } = run;
    live.delete(active.id);
    record.endSec = nowSec;
    record.endReason = reason;
    if (why !== undefined) record.reason = why;
    for (const slice of active.placement) {
      freeGpus[slice.node] = (freeGpus[slice.node] ?? 0) + slice.gpus;
      runsOnNode[slice.node]?.delete(run);
      checkDrained(slice.node);
    }
    if (active.isAllocated) usage.addRate(active.budgetId, -active.gpus, nowSec);
    const jobRecord = records[run.jobIndex] as JobRecord;
    remainingSec[run.jobIndex] = Math.max(0, run.expectedEndSec - nowSec);
    if (reason === "completed") {
      jobRecord.state = "completed";
      jobRecord.endSec = nowSec;
      return;
    }
    jobRecord.preemptions += reason === "preempted" ? 1 : 0;
    if (jobRecord.job.isResumable) enqueue(run.jobIndex);
    else {
      jobRecord.state = "preempted";
      jobRecord.endSec = nowSec;
    }
  }

  function checkDrained(node: number): void {
    if (
      nodes[node]?.health === "draining" &&
      runsOnNode[node]?.size === 0 &&
      !isDrainCounted[node]
    ) {
      isDrainCounted[node] = true;
      cluster.automatedDrains++;
    }
  }

  function setHealth(node: number, health: ClusterNodeState["health"]): void {
    const state = nodes[node] as ClusterNodeState;
    if (state.health === health) return;
    nodes[node] = { ...state, health };
    isDrainCounted[node] = false;
    const upGpus = nodes.reduce((sum, n) => sum + (n.health === "down" ? 0 : n.gpus), 0);
    cluster.healthChanges.push({ atSec: nowSec, upGpus });
    if (health === "down")
      for (const run of [...(runsOnNode[node] ?? [])]) endRun(run, "node-down");
    checkDrained(node);
  }

  // Lazy: a policy that keeps its own queue never pays for the arrays it does not read.
  function view(): SchedulerView {
    const newlyPending = arrivals;
    arrivals = [];
    let pendingList: PendingJob[] | null = null;
    let runningList: ActiveRun[] | null = null;
    let usageByLeaf: Record<string, number> | null = null;
    const atSec = nowSec;
    return {
      nowSec,
      cluster: {
        name: spec.name,
        nodes,
        lookbackSec: scenario.lookbackSec,
        maxMinRuntimeSec: scenario.maxMinRuntimeSec,
      },
      tree: scenario.tree,
      get pending() {
        return (pendingList ??= Array.from(pending.values()));
      },
      newlyPending,
      get running() {
        return (runningList ??= Array.from(live.values(), (run) => run.active));
      },
      freeGpus,
      get usageByLeaf() {
        return (usageByLeaf ??= usage.snapshot(atSec));
      },
    };
  }

  function apply(plan: SchedulerPlan): void {
    for (const preemption of plan.preemptions) {
      const run = live.get(preemption.runId);
      if (!run)
        throw new Error(
          `${scheduler.name}: preempts unknown run ${preemption.runId} at ${nowSec}s`,
        );
      endRun(run, "preempted", preemption.reason);
    }
    for (const start of plan.starts) {
      const index = jobIndexById.get(start.jobId);
      if (index === undefined || !pending.has(index)) {
        throw new Error(
          `${scheduler.name}: starts job ${start.jobId} that is not pending at ${nowSec}s`,
        );
      }
      startRun(index, start.placement, start.isAllocated, start.isProtected ?? start.isAllocated);
    }
  }

  function startRun(
    index: number,
    placement: RunRecord["placement"],
    isAllocated: boolean,
    isProtected: boolean,
  ): void {
    const job = jobs[index] as SimJob;
    const record = records[index] as JobRecord;
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
    pending.delete(index);
    record.queuedSec += nowSec - (queuedSinceSec[index] ?? nowSec);
    record.firstStartSec ??= nowSec;
    record.state = "running";
    const runId = `${job.id}#${record.runs.length + 1}`;
    const protectedUntilSec = isProtected ? nowSec + job.minRuntimeSec : nowSec;
    const expectedEndSec = nowSec + (remainingSec[index] ?? 0);
    const active: ActiveRun = {
      id: runId,
      jobId: job.id,
      budgetId: job.budgetId,
      userId: job.userId,
      gpus: job.gpus,
      placement,
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
      placement,
      gpus: job.gpus,
      isAllocated,
      protectedUntilSec,
      endReason: "running",
    };
    record.runs.push(runRecord);
    const run: LiveRun = { active, record: runRecord, jobIndex: index, expectedEndSec };
    live.set(runId, run);
    for (const slice of placement) {
      freeGpus[slice.node] = (freeGpus[slice.node] ?? 0) - slice.gpus;
      runsOnNode[slice.node]?.add(run);
    }
    if (isAllocated) usage.addRate(job.budgetId, job.gpus, nowSec);
    liveByRef.push(run);
    events.push({ atSec: expectedEndSec, kind: "completion", ref: liveByRef.length - 1 });
    if (protectedUntilSec > nowSec && protectedUntilSec < expectedEndSec) {
      events.push({ atSec: protectedUntilSec, kind: "protectionEnd", ref: liveByRef.length - 1 });
    }
  }

  while (events.size > 0 && events.peekSec() <= stopSec) {
    nowSec = events.peekSec();
    let hasChanged = false;
    while (events.peekSec() === nowSec) {
      const event = events.pop()!;
      if (event.kind === "arrival") {
        enqueue(event.ref);
        hasChanged = true;
      } else if (event.kind === "completion") {
        const run = liveByRef[event.ref] as LiveRun;
        if (live.get(run.active.id) === run) {
          endRun(run, "completed");
          hasChanged = true;
        }
      } else if (event.kind === "nodeHealth") {
        const change = nodeEvents[event.ref]!;
        setHealth(change.node, change.state);
        hasChanged = true;
      } else if (event.kind === "protectionEnd") {
        const run = liveByRef[event.ref] as LiveRun;
        if (live.get(run.active.id) === run && pending.size + drainingCount() > 0)
          hasChanged = true;
      } else if (event.atSec === wakeSec) {
        hasChanged = true;
        wakeSec = Infinity;
      }
    }
    cluster.lastEventSec = nowSec;
    if (!hasChanged) continue;
    cluster.schedulingPasses++;
    const plan = scheduler.plan(view());
    apply(plan);
    if (
      plan.wakeAtSec !== null &&
      plan.wakeAtSec > nowSec &&
      live.size > 0 &&
      plan.wakeAtSec < wakeSec
    ) {
      wakeSec = plan.wakeAtSec;
      events.push({ atSec: wakeSec, kind: "wake", ref: 0 });
    }
    if (options.onProgress && ++passCount % 4096 === 0) options.onProgress(nowSec);
  }

  function drainingCount(): number {
    return nodes.some((node) => node.health === "draining") ? 1 : 0;
  }

  const endSec = Number.isFinite(stopSec) ? stopSec : nowSec;
  nowSec = endSec;
  for (const [index, record] of records.entries()) {
    if (record.state === "pending" && jobs[index]!.submitSec <= endSec) {
      record.queuedSec += endSec - (queuedSinceSec[index] ?? endSec);
    }
  }
  for (const run of live.values()) run.record.endSec = endSec;
  const arrived = records.filter((record) => record.job.submitSec <= endSec);
  return { schedulerName: scheduler.name, records: arrived, cluster, view: view() };
}
