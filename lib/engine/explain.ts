import { formatDuration, formatOffset, type TimeFormatter } from "./format-time";
import { formatNodes } from "./node-list";
import {
  isFreeSplitAcrossNodes,
  type BudgetRef,
  type KeptFor,
  type Parting,
  type PreemptReason,
  type Reason,
  type StartReason,
  type WaitReason,
} from "./reasons";

/** How explanations write times and budgets. */
export type ExplainOptions = {
  /** Points in time (default `formatOffset`, e.g. "+2h05m"; `formatUtcClock` gives "14:05"). */
  formatTime?: TimeFormatter;
  /** Lengths of time (default `formatDuration`, e.g. "2 h"). */
  formatDuration?: TimeFormatter;
  /** How a budget is named (default its path, e.g. "llm/pretrain"). */
  budgetLabel?: (budget: BudgetRef) => string;
  /** What the usage ratio is relative to (default "weekly share", right for a 7-day window). */
  shareLabel?: string;
};

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Turns any decision's reason into one plain English sentence (or two): why a job started, why a
 * run was preempted, why a job still waits, why a node's drain completed. The one place such
 * text is written; the UI, CLI and API all call it.
 *
 * @example
 * explainReason(preemption.reason, { formatTime: formatUtcClock })
 * // "Preempted at 14:05, after its 2 h protected period: lm-pretrain (at 40% of its weekly
 * //  share) needed 64 GPUs and ranks above vision-rl (at 180%). The job was requeued with its
 * //  remaining work."
 */
export function explainReason(reason: Reason, options: ExplainOptions = {}): string {
  const words = wordsFor(options);
  switch (reason.rule) {
    case "start-allocated":
    case "start-unallocated":
      return explainStart(reason, words);
    case "preempt-for-rank":
    case "preempt-unallocated":
    case "preempt-drain":
    case "preempt-node-down":
      return explainPreemption(reason, words);
    case "drain-complete":
      return `Node ${reason.node} finished draining at ${words.time(reason.atSec)}: no runs left, ready for maintenance.`;
    default:
      return explainWait(reason, words);
  }
}

/** The phrases explanations are written with, for one set of options. */
type Words = ReturnType<typeof wordsFor>;

function wordsFor(options: ExplainOptions) {
  const time = options.formatTime ?? formatOffset;
  const duration = options.formatDuration ?? formatDuration;
  const label = options.budgetLabel ?? ((budget: BudgetRef) => budget.path);
  const shareLabel = options.shareLabel ?? "weekly share";
  const percent = (ratio: number | null): string =>
    ratio === null ? "no share" : `${Math.round(ratio * 100)}%`;
  const withUsage = (budget: BudgetRef): string =>
    `${label(budget)} (at ${percent(budget.usageRatio)} of its ${shareLabel})`;
  const above = (count: number): string =>
    count === 0
      ? "no budget ranks above yours"
      : `${plural(count, "budget ranks", "budgets rank")} above yours`;
  const shape = (needGpus: number, isWholeNodes: boolean): string =>
    `needs ${plural(needGpus, "GPU", "GPUs")} ${isWholeNodes ? "on whole nodes" : "on one node"}`;
  // The comparison that decided between two budgets (docs/ranking.md): where their paths part,
  // both sides' usage there, then the leaves' own figures. Siblings are their own parting.
  const isSiblings = (parting: Parting, higher: BudgetRef, lower: BudgetRef): boolean =>
    parting.higher.path === higher.path && parting.lower.path === lower.path;
  const partingLead = (parting: Parting): string =>
    `${parting.higher.path} (at ${percent(parting.higher.usageRatio)} of its ${shareLabel}) ` +
    `ranks above ${parting.lower.path} (at ${percent(parting.lower.usageRatio)}), where the ` +
    `two budgets' branches part, so `;
  const compare = (
    higher: BudgetRef,
    lower: BudgetRef,
    parting: Parting | null | undefined,
    verb = "ranks above",
  ): string => {
    const leaves = `${withUsage(higher)} ${verb} ${label(lower)} (at ${percent(lower.usageRatio)})`;
    if (!parting) return leaves;
    return isSiblings(parting, higher, lower)
      ? `${leaves}, its sibling, so their own figures decide`
      : partingLead(parting) + leaves;
  };
  const outcome = (value: "requeued" | "preempted"): string =>
    value === "requeued"
      ? "The job was requeued with its remaining work."
      : "The job is not resumable and ends as preempted.";

  return { time, duration, label, percent, withUsage, above, shape, isSiblings, compare, outcome };
}

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
function explainStart(reason: StartReason, words: Words): string {
  const { time, duration, label, withUsage, above, compare } = words;
  switch (reason.rule) {
    case "start-allocated": {
      const preempted =
        reason.preemptedRunIds.length > 0
          ? `, after preempting ${plural(reason.preemptedRunIds.length, "run", "runs")}`
          : "";
      const { outranked } = reason;
      const ranks =
        `ranks ${reason.budget.rank ?? "-"} ` +
        `(${above(reason.budgetsAbove).replace("yours", "it")})`;
      return (
        `Started at ${time(reason.atSec)} on ${formatNodes(reason.nodes)} with ` +
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
          ? " The share guard was waived for this short job: it preempted a budget that holds no " +
            "more than its share next to its own, which only jobs protected for at most 15 " +
            "minutes may do."
          : "")
      );
    }
    case "start-unallocated":
      return (
        `Started at ${time(reason.atSec)} on ${formatNodes(reason.nodes)} with ` +
        `${plural(reason.gpus, "GPU", "GPUs")} as unallocated work ` +
        `(${reason.cause === "zero-share" ? `${label(reason.budget)} has no share` : "minimum runtime 0"}): ` +
        `charged to nobody, never protected, and preempted whenever an allocated job needs its GPUs.`
      );
  }
}

/** Why a run was preempted. */
function explainPreemption(reason: PreemptReason, words: Words): string {
  const { time, duration, withUsage, isSiblings, compare, outcome } = words;
  switch (reason.rule) {
    case "preempt-for-rank": {
      const preempted =
        `Preempted at ${time(reason.atSec)}, after its ` +
        `${duration(reason.protectedUntilSec - reason.victimStartSec)} protected period: `;
      const { parting, preemptor, victim } = reason;
      // The leaves' own ratios may look the wrong way round: name the comparison that decided.
      const gpus = plural(preemptor.gpus, "GPU", "GPUs");
      const isAbove = parting !== null && !isSiblings(parting, preemptor.budget, victim);
      return (
        preempted +
        compare(
          preemptor.budget,
          victim,
          parting,
          isAbove ? `needed ${gpus} and preempted` : `needed ${gpus} and ranks above`,
        ) +
        `. ${outcome(reason.outcome)}`
      );
    }
    case "preempt-unallocated":
      return (
        `Preempted at ${time(reason.atSec)}: it ran as unallocated work and ` +
        `${withUsage(reason.preemptor.budget)} needed ${plural(reason.preemptor.gpus, "GPU", "GPUs")}. ` +
        outcome(reason.outcome)
      );
    case "preempt-drain":
      return (
        `Preempted at ${time(reason.atSec)}: node ${reason.node} is draining for maintenance and ` +
        `the run's protected period ended at ${time(reason.protectedUntilSec)}. ` +
        outcome(reason.outcome)
      );
    case "preempt-node-down":
      return `Ended at ${time(reason.atSec)}: node ${reason.node} went down. ${outcome(reason.outcome)}`;
  }
}

/** Why a job waits, or can never start. */
function explainWait(reason: WaitReason, words: Words): string {
  const { time, label, above, shape, compare } = words;
  switch (reason.rule) {
    case "error-invalid-job":
      return `Cannot start: ${reason.issues.map((issue) => issue.message).join(" ")}`;
    case "error-larger-than-cluster":
      return (
        `Cannot start: needs ${plural(reason.needGpus, "GPU", "GPUs")} but the cluster has ` +
        `${reason.clusterGpus} in nodes of ${reason.nodeSizeGpus}; it can never run here.`
      );
    case "wait-reservation":
      return (
        `Waiting: ${shape(reason.needGpus, reason.isWholeNodes)}; it would fit, but ` +
        `${formatNodes(reason.reservedNodes)} ${reason.reservedNodes.length === 1 ? "is" : "are"} ` +
        `kept for a job of ${label(reason.holder.budget)} that ${reason.parting ? "" : "ranks ahead and "}needs ` +
        `${plural(reason.holder.gpus, "GPU", "GPUs")}` +
        (reason.readyAtSec === null
          ? ` (no expected start yet; a job protected for at most 2 h may use them)`
          : reason.readyAtSec > reason.atSec
            ? ` (ready by ${time(reason.readyAtSec)}; a job protected only until then may use them)`
            : "") +
        (reason.parting
          ? `; ${compare(reason.holder.budget, reason.budget, reason.parting)}`
          : "") +
        `; ${above(reason.budgetsAbove)}.`
      );
    case "wait-unallocated":
      return (
        `Waiting as unallocated work (` +
        `${reason.cause === "zero-share" ? `${label(reason.budget)} has no share` : "minimum runtime 0"}): ` +
        `it may only use GPUs no allocated job can use; ${shape(reason.needGpus, reason.isWholeNodes)}; ` +
        `${reason.freeGpus} ${reason.freeGpus === 1 ? "is" : "are"} free` +
        `${reason.isWholeNodes ? ` (${plural(reason.freeWholeNodes, "whole node", "whole nodes")})` : describeMostFreeOnOneNode(reason)}.`
      );
    case "wait-resources":
      return explainWaitForResources(reason, words);
  }
}

/** For a one-node job that free GPUs would hold but no one node does: the most on one node. */
function describeMostFreeOnOneNode(
  reason: Extract<WaitReason, { rule: "wait-unallocated" }>,
): string {
  return isFreeSplitAcrossNodes(reason)
    ? `, but no healthy node has ${reason.needGpus} free (at most ${reason.mostFreeOnOneNode} on one)`
    : "";
}

/** Why a job waits for GPUs: what holds them, and what it is owed. */
function explainWaitForResources(
  reason: Extract<WaitReason, { rule: "wait-resources" }>,
  words: Words,
): string {
  const { time, label, above, shape, compare } = words;
  const parts = [
    shape(reason.needGpus, reason.isWholeNodes),
    `${reason.freeGpus} ${reason.freeGpus === 1 ? "is" : "are"} free` +
      (reason.isWholeNodes
        ? ` (${plural(reason.freeWholeNodes, "whole node", "whole nodes")})`
        : ""),
  ];
  if (reason.protectedGpus > 0) {
    const until =
      reason.readyAtSec !== null && reason.readyAtSec > reason.atSec
        ? ` until ${time(reason.readyAtSec)}`
        : "";
    parts.push(
      `${reason.protectedGpus} ${reason.protectedGpus === 1 ? "is" : "are"} held by protected runs${until}`,
    );
  }
  const ownGpus = reason.heldByOwnGpus ?? 0;
  if (ownGpus > 0) {
    parts.push(`${ownGpus} ${ownGpus === 1 ? "is" : "are"} used by your own budget's runs`);
  }
  const higherGpus = reason.heldByHigherGpus - ownGpus;
  if (higherGpus > 0) {
    const most = reason.heldMostBy;
    parts.push(
      `${higherGpus} ${higherGpus === 1 ? "is" : "are"} used by budgets ranked at or above yours` +
        (most
          ? `, ${most.gpus} of them by ${label(most.budget)}: ` +
            compare(most.budget, reason.budget, most.parting)
          : ""),
    );
  }
  if (reason.heldWithinShareGpus > 0) {
    parts.push(
      `${reason.heldWithinShareGpus} ${reason.heldWithinShareGpus === 1 ? "is" : "are"} used by budgets that hold no more than their share next to yours`,
    );
  }
  if (reason.keptForShort) {
    const { gpus, node } = reason.keptForShort;
    parts.push(
      `${gpus} ${gpus === 1 ? "is" : "are"} on node ${node}, whose unprotected runs are kept for ` +
        "short jobs (protected for at most 15 minutes)",
    );
  }
  if (reason.unusableGpus > 0) {
    parts.push(`${reason.unusableGpus} are on draining or down nodes`);
  }
  if (reason.readyAtSec === reason.atSec && reason.reservedNodes.length === 0) {
    parts.push(
      `enough GPUs are free or preemptable, but not ${reason.isWholeNodes ? "as whole nodes" : "on one node"}`,
    );
  }
  parts.push(above(reason.budgetsAbove));
  if (reason.reservedNodes.length > 0) {
    parts.push(
      `${formatNodes(reason.reservedNodes)} ${reason.reservedNodes.length === 1 ? "is" : "are"} kept for it` +
        (reason.readyAtSec !== null ? `, expected ready by ${time(reason.readyAtSec)}` : ""),
    );
  }
  return `Waiting: ${parts.join("; ")}.`;
}
