import { capitalise, wordsFor, type ExplainOptions } from "./explain-words";
import { explainPreemption } from "./explain-preemption";
import { explainStart } from "./explain-start";
import { explainWait } from "./explain-wait";
import type { Reason } from "./reasons";

// The options live beside the phrases that read them (explain-words.ts); callers import them here.
export type { ExplainOptions };

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
    case "start-adopted":
      return explainStart(reason, words);
    case "preempt-for-rank":
    case "preempt-unallocated":
    case "preempt-drain":
    case "preempt-node-down":
      return explainPreemption(reason, words);
    case "drain-complete":
      return `${capitalise(words.nodes([reason.node]))} finished draining at ${words.time(reason.atSec)}: no runs left, ready for maintenance.`;
    default:
      return explainWait(reason, words);
  }
}
