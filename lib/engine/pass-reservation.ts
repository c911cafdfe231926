import type { Holdings } from "./holdings";
import type { LiveRun } from "./live-run";
import type { ReservationRequest } from "./node-readiness";
import type { NodeRuns } from "./node-runs";
import type { PassScratch } from "./pass-scratch";
import type { GpuPool } from "./placement";
import {
  canReserve,
  reserveNodes,
  reservesOtherThan,
  surelyReserved,
  type Reservation,
} from "./reservation";
import { holdsOn } from "./short-reserve";
import type { PendingJob } from "./types";

/**
 * The reservation of the first allocated job that could not start in a sweep (ADR 010), chosen
 * lazily (ADR 013, 014): its nodes are chosen on the state at that moment, but only once a later
 * decision needs them, and most passes never need them. Nothing ends in between, and nothing
 * starts but on nodes shown to be outside the reservation: a start there only makes its node
 * later to be ready, so the nodes chosen are the same. The share guard is asked on the holdings
 * of that moment (`shield`, copied before such a start).
 */
export type HeldReservation = {
  holder: PendingJob;
  holderRank: number;
  compute: () => Reservation;
  /** For a one-node holder: whether a node is outside the reservation, or it if not. */
  check: ((position: number) => ReturnType<typeof reservesOtherThan>) | null;
  /** For a gang holder, some of the nodes the reservation takes (`surelyReserved`); else null. */
  surely: () => Uint8Array | null;
  shield: Holdings | null;
  value: Reservation | null;
};

/** What a pass knows when its first allocated job fails: see {@link openReservation}. */
export type ReservationOpening = {
  job: PendingJob;
  jobRank: number;
  pool: GpuPool;
  live: readonly LiveRun[];
  heldByPosition: readonly (readonly number[])[];
  nowSec: number;
  nodeRuns: NodeRuns | null;
  holdings: Holdings;
  /** The tree node of a budget slot (`Holdings.nodeIndexOf`). */
  nodeOfSlot: (slot: number) => number;
  /** The pass's working memory: reservations' own, and `surely`'s nodes. */
  scratch: PassScratch;
  /** The node kept for short jobs as the job sees it (`reserveKeptFrom`), or -1. */
  reserveAt: number;
};

/**
 * The reservation `job` holds, its nodes not yet chosen, or null when the healthy nodes could
 * never hold it (then a later job that fails may hold one). Internal to the pass.
 *
 * @example reservation = openReservation({ job, jobRank, pool, live, ... })
 */
export function openReservation(opening: ReservationOpening): HeldReservation | null {
  const { job, jobRank, pool, live, holdings, nodeOfSlot, scratch, reserveAt } = opening;
  if (!canReserve(pool, job.gpus, scratch.reservation)) return null;
  const holderNode = holdings.nodeIndexOf(job.budgetId);
  let sure: Uint8Array | null | undefined;
  const holder: HeldReservation = {
    holder: job,
    holderRank: jobRank,
    compute: () => reserveNodes(request)!,
    check:
      job.gpus <= pool.nodeSizeGpus
        ? (position: number) => reservesOtherThan(request, position)
        : null,
    // Asked only while the nodes are not chosen: nothing has started since.
    surely: () => {
      if (sure !== undefined) return sure;
      // Written anew for each holder and read only within its sweep.
      sure = surelyReserved(request, scratch.surely);
      if (sure) scratch.surely = sure;
      return sure;
    },
    shield: null,
    value: null,
  };
  const request: ReservationRequest = {
    pool,
    gpus: job.gpus,
    jobRank,
    runs: live,
    heldByPosition: opening.heldByPosition,
    nowSec: opening.nowSec,
    nodeRuns: opening.nodeRuns ?? undefined,
    scratch: scratch.reservation,
    // The share guard on the holdings when the holder failed (`shield`, ADR 014); the runs on
    // the node kept for short jobs, when it is kept from the holder (ADR 098).
    isShielded: (index) =>
      holdsOn(live[index]!, reserveAt) ||
      !(holder.shield ?? holdings).mayPreemptAt(
        holderNode,
        nodeOfSlot(live[index]!.budgetSlot),
        job.gpus,
        live[index]!.gpus,
      ),
  };
  return holder;
}
