import type { FairTreeRanking } from "./fair-tree-ranking";
import { createPassScratch, type PassScratch } from "./pass-scratch";
import type { SchedulePassResult } from "./pass-types";
import type { RankOf } from "./pending-queue";
import { createStandingQueue, type StandingQueue } from "./standing-queue";
import { isStillQuiet, type QuietMark } from "./quiet-pass";
import { rankLookup, runFastPass } from "./schedule-pass";
import { createStandingRuns, type StandingRuns } from "./standing-runs";
import type { ActiveRun, BudgetTree, ClusterNodeState, ClusterSpec, PendingJob } from "./types";

/**
 * Why a pass is shown to start and preempt nothing without running it
 * (`IncrementalScheduler.canSkipPass`): `idle`, no job is queued, no node is draining and no run
 * is on a down node; `blocked`, no healthy node has a free GPU, no run is on a down node and
 * every run is allocated and protected; `quiet`, the pass before started and preempted nothing
 * and nothing since could change that (ADR 018). A pass passed over may still have reported
 * draining nodes left empty (`drainsCompleted`): a caller that reads them checks them itself.
 */
export type PassSkip = "idle" | "blocked" | "quiet";

/** What `IncrementalScheduler.canSkipPass` is asked with: the moment and the caller's counts. */
export type SkipCheck = {
  cluster: ClusterSpec;
  nowSec: number;
  /** Free GPUs per node index, the runs added so far holding theirs (the caller's count). */
  freeGpus: readonly number[];
  /** The free GPUs of healthy nodes, summed. */
  usableFreeGpus: number;
  /** The ranking a pass now would use; asked for only when the check needs it (it costs). */
  ranking: () => FairTreeRanking;
};

/** What `IncrementalScheduler.pass` is given: the moment, the nodes and the ranking. */
export type IncrementalPassInput = {
  cluster: ClusterSpec;
  nowSec: number;
  ranking: FairTreeRanking;
  /** As `SchedulePassInput.describeWaits` (default true). */
  describeWaits?: boolean;
};

/**
 * A cluster's queue and runs kept from pass to pass, for a caller that sees them change by small
 * deltas (the simulator, ADR 012): jobs and runs are added and removed as they come and go, and a
 * pass costs what changed rather than the whole queue and every run. Its passes decide exactly
 * what `runSchedulePass` decides on the same jobs and runs as lists (property-tested against the
 * reference pass). Behind it, and nowhere else: the standing queue (`standing-queue.ts`), the
 * standing runs with their node sums and preemptable totals (`standing-runs.ts`), and the
 * quiet-pass check (`quiet-pass.ts`).
 */
export type IncrementalScheduler = {
  /** Queues a job (screened once, here). Throws if a job of the same id is queued. */
  addJob(job: PendingJob): void;
  /** Takes a job out of the queue; no-op for an unknown id. */
  removeJob(jobId: string): void;
  /** Adds a run holding GPUs (its placement checked against the nodes). Throws on a known id. */
  addRun(run: ActiveRun): void;
  /** Takes a run off its GPUs; no-op for an unknown id. */
  endRun(runId: string): void;
  /** Jobs queued, those that can never start included. */
  readonly jobCount: number;
  /** Jobs queued that would run allocated. */
  readonly allocatedJobCount: number;
  /**
   * Whether a pass now is shown to start and preempt nothing without running it, and why
   * (`PassSkip`); null when the pass must run. Counts as a pass for what "since the pass before"
   * means: call it, then `pass` unless it gave a reason.
   */
  canSkipPass(check: SkipCheck): PassSkip | null;
  /**
   * Runs a pass on the jobs and runs standing: its started jobs leave the queue (their runs join
   * when the caller adds them); the runs it preempts stay until the caller ends them.
   */
  pass(input: IncrementalPassInput): SchedulePassResult;
};

/** Options of {@link createIncrementalScheduler}. */
export type IncrementalOptions = {
  /** Whether `canSkipPass` may give `quiet` (ADR 018); default true. */
  skipsQuietPasses?: boolean;
};

/**
 * An empty incremental scheduler for one cluster and one budget tree (validated). The nodes'
 * indices must stay those of `cluster` (their health may change).
 *
 * @example
 * const scheduler = createIncrementalScheduler(tree, cluster);
 * scheduler.addJob(job);
 * if (!scheduler.canSkipPass({ cluster, nowSec, freeGpus, usableFreeGpus, ranking: () => ranking }))
 *   scheduler.pass({ cluster, nowSec, ranking }).starts;
 */
export function createIncrementalScheduler(
  tree: BudgetTree,
  cluster: ClusterSpec,
  options: IncrementalOptions = {},
): IncrementalScheduler {
  const kept: Kept = {
    tree,
    skipsQuietPasses: options.skipsQuietPasses ?? true,
    queue: createStandingQueue(tree, cluster),
    runs: createStandingRuns(cluster.nodes),
    newJobs: [],
    hasRunsChanged: false,
    seen: { nodes: null, isDraining: false, downNodes: [] },
    quiet: null,
    lastRanks: null,
    scratch: createPassScratch(),
  };
  const { queue, runs } = kept;
  return {
    addJob(job) {
      queue.add(job);
      kept.newJobs.push(job);
    },
    removeJob(jobId) {
      // A job gone may free a size or a place in the walk: the next pass must run.
      queue.remove(jobId);
      kept.quiet = null;
    },
    addRun(run) {
      runs.add(run);
      kept.hasRunsChanged = true;
    },
    endRun(runId) {
      runs.remove(runId);
      kept.hasRunsChanged = true;
    },
    get jobCount() {
      return queue.size;
    },
    get allocatedJobCount() {
      return queue.allocatedCount;
    },
    canSkipPass: (check) => checkSkip(kept, check),
    pass: (input) => passOn(kept, input),
  };
}

/** What an incremental scheduler keeps between passes. */
type Kept = {
  readonly tree: BudgetTree;
  readonly skipsQuietPasses: boolean;
  readonly queue: StandingQueue;
  readonly runs: StandingRuns;
  /** Jobs added since the last pass or check, for the quiet check. */
  newJobs: PendingJob[];
  /** Whether a run was added or ended since the last pass or check. */
  hasRunsChanged: boolean;
  readonly seen: NodesSeen;
  /** What the last pass left if it decided nothing (and quiet passes are skipped). */
  quiet: QuietMark | null;
  /**
   * The rank lookup of the last ranking: the same function while the ranks hold, so the standing
   * queue and runs keep their order of budgets and ranks per slot.
   */
  lastRanks: { ranking: FairTreeRanking; rankOf: RankOf } | null;
  /** The passes' working memory, reused from pass to pass. */
  readonly scratch: PassScratch;
};

/** `IncrementalScheduler.canSkipPass`. */
function checkSkip(kept: Kept, check: SkipCheck): PassSkip | null {
  const { nowSec } = check;
  const { queue, runs, seen } = kept;
  const isSameNodes = seeNodes(check.cluster.nodes, seen);
  const newJobs = kept.newJobs;
  const hasRunsChanged = kept.hasRunsChanged;
  kept.newJobs = [];
  kept.hasRunsChanged = false;
  // A pass ends the runs on down nodes, protected or not.
  const isDownHeld = seen.downNodes.length > 0 && runs.holdsOn(seen.downNodes);
  if (queue.size === 0 && !seen.isDraining && !isDownHeld) {
    kept.quiet = null;
    return "idle";
  }
  if (check.usableFreeGpus <= 0 && !isDownHeld && isAllProtected(runs, nowSec)) {
    kept.quiet = null;
    return "blocked";
  }
  const { quiet } = kept;
  if (!kept.skipsQuietPasses || quiet === null) return null;
  const ranking = check.ranking();
  const protectionEnds = runs.protectionEndsBy(nowSec);
  const isQuiet = isStillQuiet(quiet, {
    nowSec,
    nodes: check.cluster.nodes,
    freeGpus: check.freeGpus,
    newJobs,
    hasRunsChanged,
    isSameNodes,
    isDraining: seen.isDraining,
    ranking,
    protectionEnds,
    runs,
    queue,
    tree: kept.tree,
  });
  if (!isQuiet) return null;
  // A pass passed over decided nothing, as a pass run now would: the next compares with now.
  // A new mark, written out: an object spread here costs more than the check.
  kept.quiet = {
    rankByBudgetId: quiet.rankByBudgetId,
    leafCount: quiet.leafCount,
    holderRank: quiet.holderRank,
    atSec: nowSec,
    protectionEnds,
  };
  return "quiet";
}

/** `IncrementalScheduler.pass`. */
function passOn(kept: Kept, input: IncrementalPassInput): SchedulePassResult {
  const { nowSec, ranking } = input;
  const { queue, runs } = kept;
  seeNodes(input.cluster.nodes, kept.seen);
  kept.newJobs = [];
  kept.hasRunsChanged = false;
  const protectionEnds = runs.protectionEndsBy(nowSec);
  const { result, reservationHolderRank } = runFastPass({
    cluster: input.cluster,
    nowSec,
    tree: kept.tree,
    ranking,
    rankOf: rankOfRanking(kept, ranking),
    runs: runs.state,
    queue,
    describeWaits: input.describeWaits,
    scratch: kept.scratch,
  });
  for (const start of result.starts) queue.remove(start.jobId);
  const isQuiet = result.starts.length === 0 && result.preemptions.length === 0;
  kept.quiet =
    kept.skipsQuietPasses && isQuiet
      ? {
          rankByBudgetId: ranking.rankByBudgetId,
          leafCount: ranking.leafCount,
          holderRank: reservationHolderRank,
          atSec: nowSec,
          protectionEnds,
        }
      : null;
  return result;
}

/** The rank lookup of `ranking`: the last one's while the ranks are the same record. */
function rankOfRanking(kept: Kept, ranking: FairTreeRanking): RankOf {
  const last = kept.lastRanks?.ranking;
  if (last?.rankByBudgetId !== ranking.rankByBudgetId || last.leafCount !== ranking.leafCount) {
    kept.lastRanks = { ranking, rankOf: rankLookup(ranking) };
  }
  return kept.lastRanks!.rankOf;
}

/**
 * The nodes as the last pass or check saw them: whether one is draining, kept for the array it
 * was read from. Callers give a new (frozen) array whenever a node changes, so the same array
 * means the same nodes.
 */
type NodesSeen = {
  nodes: readonly ClusterNodeState[] | null;
  isDraining: boolean;
  /** The indices of the nodes that are down. */
  downNodes: number[];
};

/** Whether `nodes` is the array `seen` holds; if not, `seen` is brought up to date. */
function seeNodes(nodes: readonly ClusterNodeState[], seen: NodesSeen): boolean {
  if (nodes === seen.nodes) return true;
  seen.nodes = nodes;
  seen.isDraining = nodes.some((node) => node.health === "draining");
  seen.downNodes = nodes.filter((node) => node.health === "down").map((node) => node.index);
  return false;
}

/** True when every standing run is allocated and protected at `nowSec`. */
function isAllProtected(runs: StandingRuns, nowSec: number): boolean {
  return !runs.some((run) => !run.isAllocated || nowSec >= run.protectedUntilSec);
}
