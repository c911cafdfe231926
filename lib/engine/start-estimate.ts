import { formatNodes, type NodeNamer } from "./node-list";
import { formatOffset, type TimeFormatter } from "./format-time";
import type { WaitReason } from "./reasons";

/**
 * When a waiting job is expected to start, as far as the engine can tell (like `squeue --start`):
 * a time bound, or a plain note of what would have to change. Exactly one is non-null.
 */
export type StartEstimate = {
  /** Epoch seconds by which the job should start, when a bound is known; else null. */
  expectedStartSec: number | null;
  /** What would have to change for it to start, when no time bound is known; else null. */
  note: string | null;
};

/**
 * The conditions under which `expectedStartSec` is a bound, for a small-print line beside it.
 */
export const START_ESTIMATE_CONDITIONS =
  "An expected start counts only protections that end: it holds if the kept nodes stay healthy, " +
  "no job of a budget ranked higher arrives first and the pass still keeps the nodes for this job.";

/** A note is a sentence of its own: "nodes 0-7 ..." becomes "Nodes 0-7 ...". */
function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function gpus(count: number): string {
  return `${count} ${count === 1 ? "GPU" : "GPUs"}`;
}

/**
 * Reads a waiting job's start bound from the reason the last pass gave it. Only the job the pass
 * keeps nodes for (the first allocated job that cannot start, ADR 010) gets a time: its nodes are
 * expected ready when the protections of lower-ranked runs on them end. Every other job gets a
 * note: jobs ahead may take the GPUs that free up first.
 *
 * @example estimateStart({ rule: "wait-resources", reservedNodes: [4, 5], readyAtSec: 9000, atSec: 600, ... })
 * // { expectedStartSec: 9000, note: null }
 */
export function estimateStart(
  reason: WaitReason,
  formatTime: TimeFormatter = formatOffset,
  nodeName?: NodeNamer,
): StartEstimate {
  const note = (text: string): StartEstimate => ({ expectedStartSec: null, note: text });
  switch (reason.rule) {
    case "error-invalid-job":
    case "error-larger-than-cluster":
      return note("It can never start on this cluster as submitted.");
    case "wait-unallocated":
      return note(
        "It runs as unallocated work: it starts only when GPUs are idle that no allocated job " +
          "can use, so no time is known.",
      );
    case "wait-reservation":
      return note(
        `${capitalise(formatNodes(reason.reservedNodes, nodeName))} ${reason.reservedNodes.length === 1 ? "is" : "are"} kept ` +
          "for a job ahead of it" +
          (reason.readyAtSec !== null
            ? ` (expected to start by ${formatTime(reason.readyAtSec)})`
            : "") +
          `; it starts once that job has started and ${gpus(reason.needGpus)} are free for it.`,
      );
    case "wait-resources": {
      // GPUs of the job's own budget are counted with those ranked at or above, and apart.
      const ownGpus = reason.heldByOwnGpus ?? 0;
      const othersGpus = reason.heldByHigherGpus - ownGpus;
      if (reason.reservedNodes.length > 0) {
        if (reason.readyAtSec !== null) {
          return { expectedStartSec: Math.max(reason.readyAtSec, reason.atSec), note: null };
        }
        const kept = `${capitalise(formatNodes(reason.reservedNodes, nodeName))} ${reason.reservedNodes.length === 1 ? "is" : "are"} kept for it`;
        const meanwhile =
          "and jobs let onto those nodes meanwhile (protected for at most 2 h) have ended their " +
          "protection.";
        return note(
          othersGpus === 0 && ownGpus > 0
            ? `${kept}, but its budget's own runs hold GPUs there: it starts when they end, ${meanwhile}`
            : `${kept}, but budgets ranked at or above its budget run there: it starts when their runs ` +
                `end or its budget's rank rises above theirs, ${meanwhile}`,
        );
      }
      if (reason.readyAtSec === reason.atSec) {
        const kept = reason.keptForOther;
        const where = reason.isWholeNodes ? "as whole nodes" : "on one node";
        if (kept) {
          return note(
            `Enough GPUs are free or preemptable, but not ${where} outside ` +
              `${formatNodes(kept.nodes, nodeName)}, kept for a job ahead of it` +
              (kept.readyAtSec !== null && kept.readyAtSec > reason.atSec
                ? ` (expected to start by ${formatTime(kept.readyAtSec)})`
                : "") +
              ": it starts once that job has started, when runs end elsewhere to free what it " +
              "needs, or when fewer jobs wait ahead of it.",
          );
        }
        return note(
          (reason.isWholeNodes
            ? "Enough GPUs are free or preemptable, but not as whole nodes: it starts when " +
              "runs end on enough nodes to free them whole"
            : "Enough GPUs are free or preemptable, but not on one node: it starts when runs " +
              "on one node end") + ", or when fewer jobs wait ahead of it.",
        );
      }
      if (othersGpus === 0) {
        return note(
          ownGpus > 0
            ? `It starts when its budget's own runs or the jobs ahead of it free ${gpus(reason.needGpus)}, and protections end.`
            : "It starts when the jobs ahead of it have started and protections end.",
        );
      }
      return note(
        "It starts when jobs ahead of it have started and budgets ranked higher free " +
          `${gpus(reason.needGpus)}, or sooner if its budget's rank rises (the budget uses less of its ` +
          "share than others over the week).",
      );
    }
  }
}
