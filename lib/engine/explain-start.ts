// Why a job started: the sentence for an allocated or unallocated start (or a run Allot adopted
// from its executor), and the end it gets when the job uses GPUs kept for another (backfill, or
// a short job).
import { plural, type Words } from "./explain-words";
import type { KeptFor, StartReason } from "./reasons";

/**
 * The end of a start's sentence when it uses GPUs kept for another job: backfill, which that job
 * may preempt once its nodes are ready, or a short job (ADR 092), done before then.
 */
function explainKeptFor(keptFor: KeptFor | null, isShort: boolean, words: Words): string {
  if (!keptFor) return ".";
  const { label, time } = words;
  const budget = label(keptFor.budget);
  if (keptFor.readyAtSec === null) {
    return isShort
      ? `; as a short job it uses a node kept for a job of ${budget}, which has no expected start yet.`
      : `; it uses GPUs kept for a job of ${budget}, which has no expected start yet and may preempt it once its protection ends.`;
  }
  const kept = `a job of ${budget} expected to start at ${time(keptFor.readyAtSec)}`;
  return isShort
    ? `; as a short job it uses a node kept for ${kept}, and its protection ends before then.`
    : `; it uses GPUs kept for ${kept}, which may preempt it from then.`;
}

/** Why a job started. */
export function explainStart(reason: StartReason, words: Words): string {
  const { time, duration, label, withUsage, above, compare, nodes } = words;
  switch (reason.rule) {
    case "start-allocated": {
      const preempted =
        reason.preemptedRunIds.length > 0
          ? `, after preempting ${plural(reason.preemptedRunIds.length, "run", "runs")}`
          : "";
      const { outranked } = reason;
      const ranks = `ranks ${reason.budget.rank ?? "-"} ` + `(${above(reason.budgetsAbove, "it")})`;
      return (
        `Started at ${time(reason.atSec)} on ${nodes(reason.nodes)} with ` +
        `${plural(reason.gpus, "GPU", "GPUs")}${preempted}: ` +
        (outranked
          ? `${compare(reason.budget, outranked.budget, outranked.parting)}; it ${ranks}; `
          : `${withUsage(reason.budget)} ${ranks}; `) +
        `protected for ${duration(reason.minRuntimeSec)}, until ${time(reason.protectedUntilSec)}` +
        explainKeptFor(reason.keptFor, reason.short !== undefined, words) +
        (reason.short?.isBeforeQueue
          ? " As a short job (protected for at most 15 minutes) it was tried before the ranked " +
            "queue: jobs of better-ranked budgets that waited may preempt it once its protection ends."
          : "") +
        (reason.short?.isShareGuardWaived
          ? " The share guard was waived for this short job: it preempted a budget ranked below " +
            "its own that holds no more GPUs per unit of share than its budget does with this " +
            "job running, which only jobs protected for at most 15 minutes may do."
          : "")
      );
    }
    case "start-unallocated":
      return (
        `Started at ${time(reason.atSec)} on ${nodes(reason.nodes)} with ` +
        `${plural(reason.gpus, "GPU", "GPUs")} as unallocated work ` +
        `(${reason.cause === "zero-share" ? `${label(reason.budget)} has no share` : "minimum runtime 0"}): ` +
        `charged to nobody, never protected, and preempted whenever an allocated job needs its GPUs.`
      );
    case "start-adopted":
      return (
        `Already running on ${nodes(reason.nodes)} with ${plural(reason.gpus, "GPU", "GPUs")} ` +
        `since ${time(reason.atSec)} when Allot first saw it at ${time(reason.adoptedAtSec)}: ` +
        "it started before Allot drove the cluster, and Allot took it on as if it had started it" +
        (reason.isAllocated
          ? `, charged to ${label(reason.budget)} from its start and protected until ${time(reason.protectedUntilSec)}.`
          : ", as unallocated work: charged to nobody and never protected.")
      );
  }
}
