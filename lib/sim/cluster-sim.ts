import { createSimState, type SimRun } from "./sim-state";
import { createEventQueue } from "./event-queue";
import type { Scenario, SimCluster } from "./scenario";
import type { SchedulerFactory, SchedulerView } from "./scheduler";
import type { ClusterRecord, JobRecord } from "./sim-types";

/** Options of one cluster's simulation. */
export type ClusterSimOptions = {
  /** Stop here (seconds) instead of the scenario's horizon; runs then still running stay open. */
  untilSec?: number | null;
  /** Called now and then with the clock (seconds), for progress display. */
  onProgress?: (nowSec: number) => void;
  /**
   * Whether each run's record keeps the scheduler's reason for its start (`RunRecord.startReason`):
   * only callers that explain runs ask (the JSON report leaves it out, and a year keeps a million).
   */
  keepsStartReasons?: boolean;
};

/** The outcome of one cluster, and the scheduler's view at the last moment simulated. */
export type ClusterSimResult = {
  schedulerName: string;
  records: JobRecord[];
  cluster: ClusterRecord;
  view: SchedulerView;
};

/**
 * Simulates one cluster: a virtual clock that jumps from event to event (arrival, completion,
 * end of a protected period, node health change, scheduler wake-up) and runs one scheduling pass
 * per moment at which something changed. Clusters are independent (jobs, usage and ranks are per
 * cluster), so a scenario is simulated one cluster at a time. Arrivals are read in submit order
 * from a sorted list, so the event heap only holds what is running.
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
  const keepsStartReasons = options.keepsStartReasons === true;
  const jobs = scenario.jobs
    .filter((job) => job.cluster === spec.name)
    .map((job, i) => ({ job, i }))
    .sort((a, b) => a.job.submitSec - b.job.submitSec || a.i - b.i)
    .map(({ job }) => job);
  const state = createSimState(scenario, spec, jobs);
  const events = createEventQueue();
  const nodeEvents = scenario.nodeEvents.filter((event) => event.cluster === spec.name);
  nodeEvents.forEach((event, i) => events.push({ atSec: event.atSec, kind: "nodeHealth", ref: i }));
  // Runs by the ref of their events; a run's slot is cleared at its completion, its last event,
  // so ended runs do not stay in memory to the end.
  const liveByRef: (SimRun | null)[] = [];
  let nextArrival = 0;
  let nowSec = 0;
  let wakeSec = Infinity;

  const isLive = (ref: number): SimRun | null => {
    const run = liveByRef[ref];
    return run && !run.hasEnded ? run : null;
  };
  const nextSec = (): number =>
    Math.min(events.peekSec(), jobs[nextArrival]?.submitSec ?? Infinity);

  while (nextSec() <= stopSec && nextSec() < Infinity) {
    nowSec = nextSec();
    let hasChanged = false;
    // Completions and health changes first, then arrivals, then protection ends and wake-ups.
    while (events.peekSec() === nowSec || jobs[nextArrival]?.submitSec === nowSec) {
      const event = events.peekSec() === nowSec ? events.pop()! : null;
      if (!event || event.kind === "protectionEnd" || event.kind === "wake") {
        while (jobs[nextArrival]?.submitSec === nowSec) {
          state.enqueue(nextArrival++, nowSec);
          hasChanged = true;
        }
      }
      if (!event) continue;
      if (event.kind === "completion") {
        const run = isLive(event.ref);
        liveByRef[event.ref] = null;
        if (run) state.endRun(run, "completed", nowSec);
        hasChanged ||= run !== null;
      } else if (event.kind === "nodeHealth") {
        const change = nodeEvents[event.ref]!;
        state.setHealth(change.node, change.state, nowSec);
        hasChanged = true;
      } else if (event.kind === "protectionEnd") {
        hasChanged ||=
          isLive(event.ref) !== null && (state.pendingCount() > 0 || state.isDraining());
      } else if (event.atSec === wakeSec) {
        hasChanged = true;
        wakeSec = Infinity;
      }
    }
    state.cluster.lastEventSec = nowSec;
    if (!hasChanged) continue;
    state.cluster.schedulingPasses++;
    const plan = scheduler.plan(state.view(nowSec));
    for (const preemption of plan.preemptions) {
      const run = state.live.get(preemption.runId);
      if (!run)
        throw new Error(`${scheduler.name} preempts unknown run ${preemption.runId} at ${nowSec}s`);
      state.endRun(run, "preempted", nowSec, preemption.reason);
    }
    for (const start of plan.starts) {
      const isProtected = start.isProtected ?? start.isAllocated;
      const run = state.startRun(
        start.jobId,
        start.placement,
        start.isAllocated,
        isProtected,
        nowSec,
      );
      if (keepsStartReasons && start.reason !== undefined) run.record.startReason = start.reason;
      liveByRef.push(run);
      const ref = liveByRef.length - 1;
      events.push({ atSec: run.expectedEndSec, kind: "completion", ref });
      const untilSec = run.active.protectedUntilSec;
      if (untilSec > nowSec && untilSec < run.expectedEndSec) {
        events.push({ atSec: untilSec, kind: "protectionEnd", ref });
      }
    }
    const wakeAtSec = plan.wakeAtSec;
    if (wakeAtSec !== null && wakeAtSec > nowSec && wakeAtSec < wakeSec && state.live.size > 0) {
      wakeSec = wakeAtSec;
      events.push({ atSec: wakeSec, kind: "wake", ref: 0 });
    }
    if (options.onProgress && state.cluster.schedulingPasses % 4096 === 0)
      options.onProgress(nowSec);
  }

  const endSec = Number.isFinite(stopSec) ? stopSec : nowSec;
  const records = state.finish(endSec);
  return {
    schedulerName: scheduler.name,
    records,
    cluster: state.cluster,
    view: state.view(endSec),
  };
}
