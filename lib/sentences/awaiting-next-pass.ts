// What a pending job says before a scheduling pass has given it a reason: a new job, or one
// requeued since the last pass (after a preemption or a node failure). Both wait for the next
// pass, and neither is "not yet considered" once it has run.

/** The sentence of a pending job with no reason yet. */
export const AWAITING_NEXT_PASS = "Waiting for the scheduler's next pass.";
