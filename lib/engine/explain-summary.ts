import { capitalise, describeNeed, describeNodesNeeded, isSiblings } from "./explain-words";
import { formatNodes, type NodeNamer } from "./node-list";
import { formatOffset, type TimeFormatter } from "./format-time";
import { isFreeSplitAcrossNodes, type Reason } from "./reasons";

/** What a one-line summary may add that the reason alone does not carry. */
export type SummaryOptions = {
  /** Points in time (default `formatOffset`; `formatUtcClock` gives "14:05"). */
  formatTime?: TimeFormatter;
  /** Ranked leaf budgets on the cluster, for "7th of 12"; omitted: "7th". */
  rankedBudgets?: number;
  /** Jobs ahead of this one in the queue (its place minus one), when known. */
  jobsAhead?: number;
  /** How a node is named (default its index; SLURM's names give "nodes n[1-2]"). */
  nodeName?: NodeNamer;
};

/**
 * English ordinal of a positive whole number.
 *
 * @example formatOrdinal(1) // "1st"; formatOrdinal(12) // "12th"; formatOrdinal(23) // "23rd"
 */
export function formatOrdinal(value: number): string {
  const lastTwo = value % 100;
  const last = value % 10;
  const suffix =
    lastTwo >= 11 && lastTwo <= 13
      ? "th"
      : last === 1
        ? "st"
        : last === 2
          ? "nd"
          : last === 3
            ? "rd"
            : "th";
  return `${value}${suffix}`;
}

function count(value: number, one: string, many: string): string {
  return `${value} ${value === 1 ? one : many}`;
}

/** What a job with nodes kept for it waits for: "whole nodes", "a whole node" or "a node". */
function waitedFor(isWholeNodes: boolean, nodeCount: number): string {
  if (!isWholeNodes) return "a node";
  return nodeCount === 1 ? "a whole node" : "whole nodes";
}

/**
 * One short sentence in plain words that leads a decision's explanation (`explainReason` gives
 * the detailed one shown below it): what happens and the main cause, with no Fair Tree terms.
 * A job that waits although enough GPUs are free in total is told they are spread over nodes.
 *
 * @example
 * summarizeReason(waitReason, { rankedBudgets: 12, jobsAhead: 3 })
 * // "Waiting: 4 GPUs are free but it needs 16 GPUs on 2 whole nodes; its budget ranks 7th of 12 and
 * //  3 jobs are ahead of it."
 * // With 13 free for 12 GPUs: "Waiting: 13 GPUs are free, but spread over nodes: it needs 1 whole
 * //  node and 4 GPUs on another; its budget ranks 7th of 12."
 */
export function summarizeReason(reason: Reason, options: SummaryOptions = {}): string {
  const time = options.formatTime ?? formatOffset;
  const nodes = (indexes: readonly number[]): string => formatNodes(indexes, options.nodeName);
  const rankOf = (rank: number | null): string =>
    rank === null
      ? "its budget has no rank here"
      : `its budget ranks ${formatOrdinal(rank)}` +
        (options.rankedBudgets ? ` of ${options.rankedBudgets}` : "");
  const ahead = (): string =>
    options.jobsAhead && options.jobsAhead > 0
      ? ` and ${count(options.jobsAhead, "job is", "jobs are")} ahead of it`
      : "";
  switch (reason.rule) {
    case "wait-resources": {
      const { reservedNodes, readyAtSec } = reason;
      if (reservedNodes.length > 0) {
        const kept =
          `Waiting for ${waitedFor(reason.isWholeNodes, reservedNodes.length)}: ${nodes(reservedNodes)} ` +
          `${reservedNodes.length === 1 ? "is" : "are"} being kept for this job`;
        // Unknown when runs of budgets ranked at or above hold them: they end when they end.
        return readyAtSec !== null
          ? `${kept} and should be free by ${time(Math.max(readyAtSec, reason.atSec))}.`
          : `${kept}; when ${reservedNodes.length === 1 ? "it" : "they"} will be free is not known yet.`;
      }
      const free = count(reason.freeGpus, "GPU is", "GPUs are");
      const rank = `${rankOf(reason.budget.rank)}${ahead()}`;
      // Enough free GPUs that still do not start it: they are not where it needs them.
      if (reason.freeGpus >= reason.needGpus) {
        const nodes = describeNodesNeeded(reason.needGpus, reason.isWholeNodes, reason.layout);
        return `Waiting: ${free} free, but spread over nodes: it needs ${nodes}; ${rank}.`;
      }
      const need = describeNeed(reason.needGpus, reason.isWholeNodes, reason.layout);
      return `Waiting: ${free} free but it needs ${need}; ${rank}.`;
    }
    case "wait-reservation":
      return (
        `Waiting: ${nodes(reason.reservedNodes)} ${reason.reservedNodes.length === 1 ? "is" : "are"} ` +
        "kept for a job ahead of it" +
        (reason.readyAtSec !== null && reason.readyAtSec > reason.atSec
          ? ` (expected to start by ${time(reason.readyAtSec)})`
          : "") +
        `; ${rankOf(reason.budget.rank)}.`
      );
    case "wait-unallocated":
      return (
        "Waiting as unallocated work: it runs only on GPUs no allocated job can use, and " +
        `${count(reason.freeGpus, "GPU is", "GPUs are")} free` +
        (isFreeSplitAcrossNodes(reason)
          ? `, no more than ${reason.mostFreeOnOneNode} on one healthy node.`
          : ".")
      );
    case "error-larger-than-cluster":
      return "Cannot start: the cluster is too small for it.";
    case "error-invalid-job":
      return "Cannot start: the job's request is not valid here.";
    case "start-allocated":
      return (
        `Started at ${time(reason.atSec)} on ${count(reason.gpus, "GPU", "GPUs")}; ` +
        `nothing can preempt it until ${time(reason.protectedUntilSec)}.`
      );
    case "start-unallocated":
      return `Started at ${time(reason.atSec)} as unallocated work: any allocated job may preempt it.`;
    case "start-adopted":
      return (
        `Running since ${time(reason.atSec)}, before Allot saw it` +
        (reason.isAllocated
          ? `; nothing can preempt it until ${time(reason.protectedUntilSec)}.`
          : ": unallocated work, any allocated job may preempt it.")
      );
    case "preempt-for-rank": {
      const needed = `needed ${count(reason.preemptor.gpus, "GPU", "GPUs")}`;
      const { parting, preemptor, victim } = reason;
      // Where the paths part above the two budgets, the preemptor's budget may have used more of
      // its own share than the victim's: the branch that used less is what put it ahead.
      if (parting && !isSiblings(parting, preemptor.budget, victim)) {
        const { higher, lower } = parting;
        const isLess =
          higher.usageRatio !== null &&
          lower.usageRatio !== null &&
          higher.usageRatio < lower.usageRatio;
        return (
          `Preempted at ${time(reason.atSec)}: a job of a higher-ranked budget ${needed} ` +
          `(${higher.path} ${isLess ? "has used less of its share than" : "ranks above"} ${lower.path}).`
        );
      }
      return `Preempted at ${time(reason.atSec)}: a job of a budget that has used less of its share ${needed}.`;
    }
    case "preempt-unallocated":
      return `Preempted at ${time(reason.atSec)}: it ran as unallocated work and an allocated job needed its GPUs.`;
    case "preempt-drain":
      return `Preempted at ${time(reason.atSec)}: ${nodes([reason.node])} is being emptied for maintenance.`;
    case "preempt-node-down":
      return `Ended at ${time(reason.atSec)}: ${nodes([reason.node])} went down.`;
    case "drain-complete":
      return `${capitalise(nodes([reason.node]))} is empty and ready for maintenance since ${time(reason.atSec)}.`;
  }
}
