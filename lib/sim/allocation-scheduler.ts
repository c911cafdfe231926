import {
  createFairTreeRanker,
  createStandingQueue,
  createStandingRuns,
  runSchedulePass,
  validateBudgetTree,
  type ClusterNodeState,
  type StandingQueue,
  type StandingRuns,
} from "../engine";
import { isStillQuiet, type QuietMark } from "./quiet-pass";
import type { Scenario, SimCluster } from "./scenario";
import type { Scheduler, SchedulerPlan, SchedulerView } from "./scheduler";

/**
 * How often, in seconds, a pass runs again while allocated jobs wait on GPUs held by others:
 * ranks shift continuously as usage accrues and leaves the window, so a waiting job may come to
 * outrank an unprotected run without any event. SLURM recomputes priorities every 5 minutes
 * (PriorityCalcPeriod) by default; we do the same.
 */
export const RERANK_INTERVAL_SEC = 300;

const NO_PLAN: SchedulerPlan = { starts: [], preemptions: [], wakeAtSec: null };

/**
 * What the adapter knows of the nodes: whether one is draining, kept for the array it was read
 * from. The simulator gives a new (frozen) array whenever a node changes (`SchedulerView`), so
 * the same array means the same nodes.
 */
type NodesSeen = { nodes: readonly ClusterNodeState[] | null; isDraining: boolean };

/**
 * Whether the view's nodes are the array `seen` holds; if not, `seen` is brought up to date, with
 * one look at each node.
 */
function seeNodes(view: SchedulerView, seen: NodesSeen): boolean {
  const { nodes } = view.cluster;
  if (nodes === seen.nodes) return true;
  seen.nodes = nodes;
  seen.isDraining = nodes.some((node) => node.health === "draining");
  return false;
}

/** No start and no preemption: every pending job waits, allocated ones asking for a re-rank. */
function waitPlan(queue: StandingQueue, nowSec: number): SchedulerPlan {
  const isWaiting = queue.allocatedCount > 0;
  return { ...NO_PLAN, wakeAtSec: isWaiting ? nowSec + RERANK_INTERVAL_SEC : null };
}

/** True when every run is allocated and protected. */
function isAllProtected(nowSec: number, runs: StandingRuns): boolean {
  return !runs.some((run) => !run.isAllocated || nowSec >= run.protectedUntilSec);
}

/**
 * The budget scheduler (docs/contract.md): a thin adapter around the engine's
 * `runSchedulePass`, fed the simulator's incremental usage window; decisions and reasons are the
 * engine's own. Two shortcuts, exact: no pass when nothing is free or preemptable (no free GPU on
 * a healthy node, no unallocated run, every allocated run protected), since the engine could
 * then neither start nor preempt anything; and none when the pass before decided nothing and
 * only arrivals that could not start or move the reservation came since (`isStillQuiet`,
 * ADR 018). Asks to be woken every {@link RERANK_INTERVAL_SEC} while allocated jobs wait for
 * GPUs.
 *
 * @example runSimulation(scenario, createAllocationScheduler)
 */
export function createAllocationScheduler(scenario: Scenario, cluster: SimCluster): Scheduler {
  return createAllocationSchedulerWith({ skipsQuietPasses: true })(scenario, cluster);
}

/** Options of {@link createAllocationSchedulerWith}. */
export type AllocationSchedulerOptions = {
  /** Whether to pass over passes shown to decide nothing (ADR 018); true in `allot`. */
  skipsQuietPasses: boolean;
  /** Called for each pass passed over, for tests and benchmarks. */
  onQuietPass?: (nowSec: number) => void;
};

/**
 * The budget scheduler with its shortcuts chosen: {@link createAllocationScheduler} skips quiet
 * passes; tests compare it with a scheduler that runs every pass.
 *
 * @example runSimulation(scenario, createAllocationSchedulerWith({ skipsQuietPasses: false }))
 */
export function createAllocationSchedulerWith(
  options: AllocationSchedulerOptions,
): (scenario: Scenario, cluster: SimCluster) => Scheduler {
  return (scenario, cluster) => createScheduler(scenario, cluster, options);
}

function createScheduler(
  scenario: Scenario,
  cluster: SimCluster,
  options: AllocationSchedulerOptions,
): Scheduler {
  const checked = validateBudgetTree(scenario.tree);
  if (!checked.ok) {
    const problems = checked.issues.map((issue) => issue.message).join("; ");
    throw new Error(`allocation: the budget tree is invalid: ${problems}`);
  }
  const tree = checked.value;
  const capacityGpus = cluster.nodes * cluster.gpusPerNode;
  // Ranked once per pass on the leaves' usage, read one leaf at a time (ADR 014).
  const rank = createFairTreeRanker(tree);
  const leafUsage = new Float64Array(tree.nodes.length);
  // The leaves' ids by tree node index (null for inner nodes), read together at every pass.
  const leafIdByIndex = tree.nodes.map((node) => (node.isLeaf ? node.id : null));
  // Queue and runs are kept from pass to pass (ADR 012): jobs join as the view reports them and
  // leave as they start; runs come and go with the view's deltas.
  let queue: StandingQueue | null = null;
  let runs: StandingRuns | null = null;
  // The nodes as the last pass saw them, and what it left if it decided nothing.
  const seenNodes: NodesSeen = { nodes: null, isDraining: false };
  let quiet: QuietMark | null = null;

  function plan(view: SchedulerView): SchedulerPlan {
    queue ??= createStandingQueue(tree, view.cluster);
    runs ??= createStandingRuns(view.cluster.nodes);
    for (const job of view.newlyPending) queue.add(job);
    for (const run of view.runsStarted) runs.add(run);
    for (const run of view.runsEnded) runs.remove(run.id);
    const isSameNodes = seeNodes(view, seenNodes);
    const { isDraining } = seenNodes;
    const hasFreeGpu = view.usableFreeGpus > 0;
    if (queue.size === 0 && !isDraining) {
      quiet = null;
      return NO_PLAN;
    }
    // Nothing free or preemptable: the engine could neither start nor preempt anything.
    if (!hasFreeGpu && isAllProtected(view.nowSec, runs)) {
      quiet = null;
      return waitPlan(queue, view.nowSec);
    }
    view.usagesOf(leafIdByIndex, leafUsage);
    const ranking = rank(leafUsage, { capacityGpus, windowSec: view.cluster.lookbackSec });
    const protectionEnds = runs.protectionEndsBy(view.nowSec);
    const isQuiet =
      options.skipsQuietPasses &&
      quiet !== null &&
      isStillQuiet(quiet, {
        view,
        isSameNodes,
        isDraining,
        ranking,
        protectionEnds,
        runs,
        tree,
        isAllocated: (job) => queue!.isAllocated(job.id),
        bestAllocatedRank: (rankOf) => queue!.bestRank(true, rankOf),
      });
    if (isQuiet) {
      // A pass passed over decided nothing, as a pass run now would: the next compares with now.
      // A new mark, written out: an object spread here costs more than the check.
      quiet = {
        rankByBudgetId: quiet!.rankByBudgetId,
        leafCount: quiet!.leafCount,
        holderRank: quiet!.holderRank,
        atSec: view.nowSec,
        protectionEnds,
      };
      options.onQuietPass?.(view.nowSec);
      return waitPlan(queue, view.nowSec);
    }
    const result = runSchedulePass({
      cluster: view.cluster,
      nowSec: view.nowSec,
      tree,
      ranking,
      runs,
      pending: queue,
      describeWaits: false,
    });
    for (const start of result.starts) queue.remove(start.jobId);
    quiet =
      result.starts.length === 0 && result.preemptions.length === 0
        ? {
            rankByBudgetId: ranking.rankByBudgetId,
            leafCount: ranking.leafCount,
            holderRank: result.reservationHolderRank,
            atSec: view.nowSec,
            protectionEnds,
          }
        : null;
    const isWaitingForGpus = result.waitingCounts.allocated > 0;
    // The engine's decisions are the plan's as they are: they carry the fields the simulator
    // reads (job, placement, kind and reason of a start; run and reason of a preemption).
    return {
      starts: result.starts,
      preemptions: result.preemptions,
      wakeAtSec: isWaitingForGpus ? view.nowSec + RERANK_INTERVAL_SEC : null,
    };
  }
  return { name: "allocation", plan };
}
