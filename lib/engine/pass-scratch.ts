import { createPlanScratch, type PlanScratch } from "./preemption";
import { createReservationScratch, type ReservationScratch } from "./node-readiness";

// The working memory a scheduling pass reuses instead of allocating (internal to the engine).

/**
 * Lists and arrays a pass writes anew for each use and reads only within it, so that most uses
 * allocate nothing: one per pass of `runSchedulePass`, or one an `IncrementalScheduler` keeps for
 * all its passes (passes never run inside one another). Nothing in it is a decision.
 */
export type PassScratch = {
  /** Room per node of the job a preemption plan is for (`roomAmong`). */
  readonly room: number[];
  /** The same for short jobs' plans (ADR 092). */
  readonly shortRoom: number[];
  /** The nodes a gang reservation surely takes (`surelyReserved`), replaced when too short. */
  surely: Uint8Array;
  /** `planPreemption`'s working arrays. */
  readonly plan: PlanScratch;
  /** The reservations' working memory (`reserveNodes` and its kin). */
  readonly reservation: ReservationScratch;
};

/**
 * Empty working memory for passes.
 *
 * @example runFastPass({ ...input, scratch: createPassScratch() })
 */
export function createPassScratch(): PassScratch {
  return {
    room: [],
    shortRoom: [],
    surely: new Uint8Array(0),
    plan: createPlanScratch(),
    reservation: createReservationScratch(),
  };
}
