// Why a job waits or can never start: invalid, larger than the cluster, kept off a reservation,
// unallocated, or short of GPUs (what holds them, and what the job is owed).
import { plural, type Words } from "./explain-words";
import { isFreeSplitAcrossNodes, type WaitReason } from "./reasons";

/** Why a job waits, or can never start. */
export function explainWait(reason: WaitReason, words: Words): string {
  const { time, label, above, shape, compare, nodes } = words;
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
        `Waiting: ${shape(reason.needGpus, reason.isWholeNodes, reason.layout)}; it would fit, but ` +
        `${nodes(reason.reservedNodes)} ${reason.reservedNodes.length === 1 ? "is" : "are"} ` +
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
        `it may only use GPUs no allocated job can use; ${shape(reason.needGpus, reason.isWholeNodes, reason.layout)}; ` +
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
  const { time, label, above, shape, compare, nodes } = words;
  const parts = [
    shape(reason.needGpus, reason.isWholeNodes, reason.layout),
    `${reason.freeGpus} ${reason.freeGpus === 1 ? "is" : "are"} free` +
      (reason.isWholeNodes
        ? ` (${plural(reason.freeWholeNodes, "whole node", "whole nodes")})`
        : ""),
  ];
  const preemptable = reason.preemptableGpus ?? 0;
  if (preemptable > 0) {
    parts.push(
      `${preemptable} ${preemptable === 1 ? "is" : "are"} held by runs it may preempt ` +
        "(unallocated work, or unprotected runs of budgets ranked below its budget)",
    );
  }
  if (reason.protectedGpus > 0) {
    const until =
      reason.readyAtSec !== null && reason.readyAtSec > reason.atSec
        ? ` (enough for this job are out of protection by ${time(reason.readyAtSec)})`
        : "";
    parts.push(
      `${reason.protectedGpus} ${reason.protectedGpus === 1 ? "is" : "are"} held by protected ` +
        `runs of budgets ranked below its budget${until}`,
    );
  }
  const ownGpus = reason.heldByOwnGpus ?? 0;
  if (ownGpus > 0) {
    parts.push(`${ownGpus} ${ownGpus === 1 ? "is" : "are"} used by its own budget's runs`);
  }
  const higherGpus = reason.heldByHigherGpus - ownGpus;
  if (higherGpus > 0) {
    const most = reason.heldMostBy;
    parts.push(
      `${higherGpus} ${higherGpus === 1 ? "is" : "are"} used by budgets ranked at or above its budget` +
        (most
          ? `, ${most.gpus} of them by ${label(most.budget)}: ` +
            compare(most.budget, reason.budget, most.parting)
          : ""),
    );
  }
  if (reason.heldWithinShareGpus > 0) {
    // The share guard (ADR 011): taking them would leave its branch holding at least as many
    // GPUs per unit of share as theirs, compared where the two branches part.
    const shielded = reason.heldWithinShareGpus;
    parts.push(
      `${shielded} ${shielded === 1 ? "is" : "are"} used by budgets ranked below its budget that ` +
        "it may not preempt: they hold no more GPUs per unit of share than its budget would with " +
        "this job running (the share guard, compared where their branches part)",
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
    const kept = reason.keptForOther;
    parts.push(
      `enough GPUs are free or preemptable, but not ${reason.isWholeNodes ? "as whole nodes" : "on one node"}` +
        (kept
          ? ` outside ${nodes(kept.nodes)}, kept for a job ahead of it` +
            (kept.readyAtSec !== null && kept.readyAtSec > reason.atSec
              ? ` (expected to start by ${time(kept.readyAtSec)})`
              : "")
          : ""),
    );
  }
  parts.push(above(reason.budgetsAbove));
  if (reason.reservedNodes.length > 0) {
    parts.push(
      `${nodes(reason.reservedNodes)} ${reason.reservedNodes.length === 1 ? "is" : "are"} kept for it` +
        (reason.readyAtSec !== null ? `, expected ready by ${time(reason.readyAtSec)}` : ""),
    );
  }
  return `Waiting: ${parts.join("; ")}.`;
}
