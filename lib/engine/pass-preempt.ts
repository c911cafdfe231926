import type { ClusterState } from "./cluster-state";
import type { Holdings } from "./holdings";
import type { LiveRun } from "./live-run";
import { endPassRun, reservedNodes, startJob, type PassState } from "./pass-state";
import { judgeSlotByShareGuard, type PreemptableTotals } from "./preemptable-totals";
import {
  addRoomOf,
  canMakeRoom,
  hasRoomIn,
  planPreemption,
  positionsWithRoom,
  rankPreemptionReason,
  roomAmong,
  type PreemptionPlan,
} from "./preemption";
import type { Comparison, KeptFor, ShortStart } from "./reasons";
import { holdsOn, reserveKeptFrom } from "./short-reserve";
import type { PendingJob } from "./types";

/**
 * How an attempt to start an allocated job ended: started (and whether a preemption freed GPUs
 * beyond what the job takes on a healthy node, which may let an earlier-failed size fit), or not.
 */
export type StartOutcome = "started" | "started-with-surplus" | "failed";

/**
 * The fewest unprotected runs of one budget for which a plan's room asks the share guard for one
 * verdict on them all (`judgeSlotByShareGuard`) rather than asking it of each run.
 */
const MIN_RUNS_JUDGED_AS_ONE = 4;

/**
 * Starts an allocated job that free GPUs could not hold by preempting (ADR 010, "Preempt";
 * docs/contract.md): unallocated runs, and unprotected runs of budgets ranked below the job's
 * that the share guard lets it preempt, outside the sweep's reservation and, unless it is short,
 * off the node kept for short jobs (ADR 098); only if that lets it start at once. Runs started
 * in this pass are never victims. `isReservationOpen`: the reservation's nodes were not chosen
 * before the job was tried. Internal to the pass.
 *
 * @example return preemptToStart(pass, job, jobRank, isReservationOpen)
 */
export function preemptToStart(
  pass: PassState,
  job: PendingJob,
  jobRank: number,
  isReservationOpen: boolean,
): StartOutcome {
  const { loaded: state, pool, live, holdings, nodeOfSlot, reservation } = pass;
  // Most plans fail: skip those that could not free enough GPUs even with every victim.
  const missingGpus = job.gpus - pass.bounds.usableFreeGpus;
  if (pass.preemptableGpus(job, jobRank, missingGpus) < missingGpus) return "failed";
  const jobNode = holdings.nodeIndexOf(job.budgetId);
  // A victim: unallocated, or unprotected and of a budget ranked below the job's, and not on
  // the node kept for short jobs unless the job is short (open), and then one the share guard
  // lets the job preempt (allowed).
  const reserveAt = reserveKeptFrom(job, pool.nodeSizeGpus, pass.shortReserveAt);
  const isOpenRun = (entry: LiveRun): boolean =>
    !entry.isGone &&
    (!entry.isAllocated || (!entry.isProtectedNow && entry.rank > jobRank)) &&
    !holdsOn(entry, reserveAt);
  const isAllowedRun = (entry: LiveRun): boolean =>
    isOpenRun(entry) &&
    (!entry.isAllocated ||
      holdings.mayPreemptAt(jobNode, nodeOfSlot(entry.budgetSlot), job.gpus, entry.gpus));
  // Runs started in this pass are never victims.
  const isAllowed = (index: number): boolean =>
    index < state.loadedCount && isAllowedRun(live[index]!);
  // With standing totals, only the runs they count could be victims.
  const totals = state.preemptable;
  const room = totals
    ? countVictimRoom(
        state,
        totals,
        holdings,
        nodeOfSlot,
        job,
        jobRank,
        isOpenRun,
        isAllowedRun,
        pass.scratch.room,
      )
    : null;
  // The nodes that could count, read once: the job may be asked about up to three times.
  const roomy = room ? positionsWithRoom(pool, job.gpus, room) : null;
  // Most of the plans left fail too, for want of one node that could be cleared enough: checked
  // first without the reservation (which need not be chosen then), then outside it.
  const canPlan = (excluded?: Uint8Array): boolean =>
    room
      ? hasRoomIn(pool, job.gpus, room, excluded, roomy!)
      : canMakeRoom(pool, job.gpus, live, state.heldByPosition, isAllowed, excluded);
  if (isReservationOpen && !canPlan()) return "failed";
  // A gang job's reservation often takes every node that could be cleared: the nodes it surely
  // takes, found without choosing them all, may show it (more nodes excluded, less room).
  if (reservation?.value === null && room) {
    const sure = reservation.surely();
    if (sure && !hasRoomIn(pool, job.gpus, room, sure, roomy!)) return "failed";
  }
  const excluded = reservedNodes(pass)?.isExcluded;
  if (!canPlan(excluded)) return "failed";
  // Only the nodes with room could serve: their victim lists alone are built and read.
  const positions = roomy ?? undefined;
  const plan = planPreemption(
    pool,
    job.gpus,
    live,
    state.victimsByPosition(positions),
    isAllowed,
    pass.nowSec,
    excluded,
    positions,
    pass.scratch.plan,
  );
  if (!plan) throw new Error("A plan failed where canMakeRoom found room.");
  return startInPlaceOf(pass, job, plan);
}

/**
 * Ends the victims of `plan`, each with its preemption reason, and starts `job` on their GPUs
 * (`keptFor` and `short` as the start records them). "started-with-surplus" when the victims
 * freed GPUs beyond the job's on a usable node: they may let a job that failed start now.
 */
export function startInPlaceOf(
  pass: PassState,
  job: PendingJob,
  plan: PreemptionPlan,
  keptFor: KeptFor | null = null,
  short: ShortStart | null = null,
): StartOutcome {
  const { pool, live } = pass;
  const surplus = new Map<number, number>();
  for (const slice of plan.placement) surplus.set(slice.node, -slice.gpus);
  const preemptor = { jobId: job.id, budget: pass.budgetRef(job.budgetId), gpus: job.gpus };
  let outranked: Comparison | null = null;
  for (const index of plan.victims) {
    const entry = live[index]!;
    const run = entry.run!;
    for (const slice of run.placement) {
      surplus.set(slice.node, (surplus.get(slice.node) ?? 0) + slice.gpus);
    }
    const parting = run.isAllocated ? pass.partingOf(job.budgetId, run.budgetId) : null;
    const victim = pass.budgetRef(run.budgetId);
    if (run.isAllocated && outranked === null) outranked = { budget: victim, parting };
    endPassRun(pass, entry, rankPreemptionReason(run, preemptor, victim, pass.nowSec, parting));
  }
  startJob(
    pass,
    job,
    true,
    plan.placement,
    plan.victims.map((index) => live[index]!.run!.id),
    keptFor,
    outranked,
    short,
  );
  const hasSurplus = [...surplus].some(
    ([node, gpus]) => gpus > 0 && pool.isUsable[pool.positionOf.get(node)!] === 1,
  );
  return hasSurplus ? "started-with-surplus" : "started";
}

/**
 * The GPUs each position could offer a job (`roomAmong`) from the runs the standing totals count:
 * unallocated ones, and unprotected ones of budgets ranked below the job's. The share guard gives
 * one verdict per budget with many such runs: when it refuses them all (the usual case on Philly)
 * they are passed over unread, when it allows them all they are read with `isOpenRun` alone; the
 * runs of other budgets are read with `isAllowedRun`, which asks it of each. Written into
 * `into` (the pass's scratch, read only within the plan).
 */
function countVictimRoom(
  state: ClusterState,
  totals: PreemptableTotals,
  holdings: Holdings,
  nodeOfSlot: (slot: number) => number,
  job: PendingJob,
  jobRank: number,
  isOpenRun: (entry: LiveRun) => boolean,
  isAllowedRun: (entry: LiveRun) => boolean,
  into: number[],
): number[] {
  const openGroups: Set<LiveRun>[] = [totals.unallocatedRuns];
  const guardedGroups: Set<LiveRun>[] = [];
  const guardJob = { node: holdings.nodeIndexOf(job.budgetId), gpus: job.gpus };
  const { runsBySlot } = totals;
  for (let slot = 0; slot < runsBySlot.length; slot += 1) {
    const runs = runsBySlot[slot];
    if (runs === undefined || state.rankBySlot[slot]! <= jobRank) continue;
    const count = runs.size;
    if (count === 0) continue;
    if (count < MIN_RUNS_JUDGED_AS_ONE) {
      guardedGroups.push(runs);
      continue;
    }
    const verdict = judgeSlotByShareGuard(totals, slot, guardJob, holdings, nodeOfSlot(slot));
    if (verdict === "all") openGroups.push(runs);
    else if (verdict === "some") guardedGroups.push(runs);
  }
  const room = roomAmong(state.pool, openGroups, isOpenRun, into);
  addRoomOf(room, guardedGroups, isAllowedRun);
  return room;
}
