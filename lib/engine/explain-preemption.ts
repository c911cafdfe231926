// Why a run was preempted: outranked, unallocated work, a draining node or a node gone down.
import { plural, type Words } from "./explain-words";
import type { PreemptReason } from "./reasons";

/** Why a run was preempted. */
export function explainPreemption(reason: PreemptReason, words: Words): string {
  const { time, duration, withUsage, isSiblings, compare, outcome, nodes } = words;
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
        `Preempted at ${time(reason.atSec)}: ${nodes([reason.node])} is draining for maintenance and ` +
        `the run's protected period ended at ${time(reason.protectedUntilSec)}. ` +
        outcome(reason.outcome)
      );
    case "preempt-node-down":
      return `Ended at ${time(reason.atSec)}: ${nodes([reason.node])} went down. ${outcome(reason.outcome)}`;
  }
}
