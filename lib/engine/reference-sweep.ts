// Step 6 of the reference pass (reference-pass.ts): the allocated sweeps (place, preempt,
// reserve, backfill) and the short jobs' sweep, written as the rules read.
import { isBackfillOpen } from "./backfill-rule";
import type { KeptFor } from "./reasons";
import {
  passesShareGuard,
  placeOnFree,
  planVictims,
  reserveNodes,
  type ReferenceRun,
} from "./reference-rules";
import { isShortJob, SHORT_MAX_RUNTIME_SEC, shortMaxGpus, shortStart } from "./short-jobs";
import type { NodeSlice, PendingJob } from "./types";
import {
  isKeptForShort,
  startByPreemption,
  startInPlaceOf,
  startJob,
  type ReferenceHolder,
  type ReferenceState,
} from "./reference-state";

/** How many times the allocated queue is swept at most (ADR 010, "Repeat sweep"). */
const MAX_SWEEPS = 8;

/** Step 6c: the reservation of a job that failed, or null when the healthy nodes never hold it. */
function reserveFor(state: ReferenceState, job: PendingJob, rank: number): ReferenceHolder | null {
  const { tree } = state.input;
  const isShielded = (run: ReferenceRun): boolean =>
    isKeptForShort(state, job, run) ||
    !passesShareGuard(tree, state.runs, job.budgetId, run.budgetId, job.gpus, run.gpus);
  const reservation = reserveNodes(
    state.nodes,
    state.runs,
    job.gpus,
    rank,
    state.nowSec,
    isShielded,
  );
  return reservation && { job, rank, reservation };
}

/** Step 6: sweeps the allocated queue; gives the last sweep's reservation holder, if any. */
export function sweepAllocated(
  state: ReferenceState,
  queue: readonly PendingJob[],
): ReferenceHolder | null {
  let holder: ReferenceHolder | null = null;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep += 1) {
    holder = null;
    let hasFreedExtra = false;
    let blockedFromGpus = Number.POSITIVE_INFINITY;
    let backfillBlockedFromGpus = Number.POSITIVE_INFINITY;
    for (const job of queue) {
      if (state.started.has(job)) continue;
      const rank = state.rankOf(job.budgetId);
      if (job.gpus < blockedFromGpus) {
        const excluded = holder?.reservation.isExcluded ?? null;
        const placement = placeOnFree(state.nodes, job.gpus, excluded);
        if (placement) {
          startJob(state, job, true, placement);
          continue;
        }
        const outcome = startByPreemption(state, job, rank, excluded);
        if (outcome.isStarted) {
          if (outcome.hasSurplus) {
            hasFreedExtra = true;
            blockedFromGpus = Number.POSITIVE_INFINITY;
            backfillBlockedFromGpus = Number.POSITIVE_INFINITY;
          }
          continue;
        }
        blockedFromGpus = job.gpus;
        if (holder === null) {
          holder = reserveFor(state, job, rank);
          continue;
        }
      }
      const readyAtSec = holder?.reservation.readyAtSec ?? null;
      const mayBackfill =
        holder !== null &&
        rank > holder.rank &&
        job.gpus < backfillBlockedFromGpus &&
        isBackfillOpen(readyAtSec, state.nowSec, job.minRuntimeSec);
      if (!mayBackfill) continue;
      const placement = placeOnFree(state.nodes, job.gpus, null);
      if (placement) {
        const keptFor = {
          jobId: holder!.job.id,
          budget: state.budgetRef(holder!.job.budgetId),
          readyAtSec,
        };
        startJob(state, job, true, placement, { keptFor });
      } else backfillBlockedFromGpus = job.gpus;
    }
    if (!hasFreedExtra) break;
  }
  return holder;
}

/**
 * Steps 6-first and 6e: short jobs get a sweep of their own, before the allocated sweeps
 * (`isBeforeQueue`, no reservation yet) and after each. Gives whether a preemption freed GPUs on
 * healthy nodes beyond its job's (the short sweep then ended).
 */
export function startShortJobs(
  state: ReferenceState,
  queue: readonly PendingJob[],
  holder: ReferenceHolder | null,
  isBeforeQueue: boolean,
): boolean {
  const { nodes, nowSec } = state;
  const { tree } = state.input;
  const readyAtSec = holder?.reservation.readyAtSec ?? null;
  const isKeptOpen = readyAtSec === null || nowSec + SHORT_MAX_RUNTIME_SEC <= readyAtSec;
  const excluded = holder && !isKeptOpen ? holder.reservation.isExcluded : null;
  const keptFor = (job: PendingJob, placement: NodeSlice[]): KeptFor | null =>
    holder &&
    isKeptOpen &&
    holder.job !== job &&
    holder.reservation.isExcluded[nodes.index.indexOf(placement[0]!.node)]
      ? { jobId: holder.job.id, budget: state.budgetRef(holder.job.budgetId), readyAtSec }
      : null;
  let maxGpus = shortMaxGpus(nodes.sizeGpus);
  for (const job of queue) {
    if (state.started.has(job) || !isShortJob(job, nodes.sizeGpus) || job.gpus > maxGpus) continue;
    const rank = state.rankOf(job.budgetId);
    const placement = placeOnFree(nodes, job.gpus, excluded);
    if (placement) {
      const short = shortStart(false, isBeforeQueue);
      startJob(state, job, true, placement, { keptFor: keptFor(job, placement), short });
      continue;
    }
    const candidates = state.runs
      .slice(0, state.loadedCount)
      .filter((run) => !run.isGone && !run.isProtectedNow && (!run.isAllocated || run.rank > rank));
    const plan = planVictims(nodes, candidates, job.gpus, excluded, nowSec);
    if (!plan) {
      maxGpus = job.gpus - 1;
      continue;
    }
    const isShareGuardWaived = plan.victims.some(
      (run) =>
        run.isAllocated &&
        !passesShareGuard(tree, state.runs, job.budgetId, run.budgetId, job.gpus, run.gpus),
    );
    const short = shortStart(isShareGuardWaived, isBeforeQueue);
    if (startInPlaceOf(state, job, plan, { keptFor: keptFor(job, plan.placement), short })) {
      return true;
    }
  }
  return false;
}
