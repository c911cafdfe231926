// The sentences of the oversight history (issue #35): who changed a node's health or cancelled
// a job, when and why. Pure: times are written by the caller's formatter (lib/format.ts).
import { formatDate, formatSpan } from "../format";

export type HealthSource = "person" | "executor" | "demo_driver";

/** Who did it: a person by name, the cluster's executor or the demo executor. */
export type Actor = { source: HealthSource | null; name: string | null };

/**
 * "by Riley Chen", "by the demo executor", "by the cluster's executor"; a person whose account
 * is gone, or a change recorded before sources were kept, says so.
 *
 * @example actorPhrase({ source: "demo_driver", name: null }) // "by the demo executor"
 */
export function actorPhrase(actor: Actor): string {
  switch (actor.source) {
    case "person":
      return actor.name ? `by ${actor.name}` : "by a person no longer in Allot";
    case "executor":
      return "by the cluster's executor";
    case "demo_driver":
      return "by the demo executor";
    default:
      return "(who was not recorded)";
  }
}

function withReason(sentence: string, reason: string | null): string {
  return reason ? `${sentence}: ${reason}` : `${sentence}.`;
}

/**
 * One change of a node's health.
 *
 * @example healthChangeSentence({ node: 4, health: "healthy", at: "14:05 UTC",
 *   actor: { source: "demo_driver", name: null }, reason: null })
 * // "Node 4 set healthy by the demo executor at 14:05 UTC."
 */
export function healthChangeSentence(change: {
  node: number;
  health: string;
  at: string;
  actor: Actor;
  reason: string | null;
}): string {
  return withReason(
    `Node ${change.node} set ${change.health} ${actorPhrase(change.actor)} at ${change.at}`,
    change.reason,
  );
}

/**
 * A job's cancel: by a person in Allot, or on the cluster's executor (no person known here).
 *
 * @example cancelSentence({ byName: "Riley Chen", isByPerson: true, at: "14:05 UTC",
 *   reason: "wrong config" }) // "Cancelled by Riley Chen at 14:05 UTC: wrong config"
 */
export function cancelSentence(cancel: {
  byName: string | null;
  isByPerson: boolean;
  at: string;
  reason: string | null;
}): string {
  const who = cancel.isByPerson
    ? actorPhrase({ source: "person", name: cancel.byName })
    : actorPhrase({ source: "executor", name: null });
  return withReason(`Cancelled ${who} at ${cancel.at}`, cancel.reason);
}

/**
 * How long a node has been in its state (epoch seconds): exact when the change that put it there
 * is recorded; for a node with no change on record, only a lower bound from when the cluster's
 * records begin, as any exact figure would be made up.
 *
 * @example stateAgePhrase({ healthChangedSec: 0, isUnchangedOnRecord: true }, 3 * 86_400)
 * // "at least 3 d 0 h: no change since records began, 1970-01-01"
 */
export function stateAgePhrase(
  node: { healthChangedSec: number; isUnchangedOnRecord: boolean },
  nowSec: number,
): string {
  const span = formatSpan(nowSec - node.healthChangedSec);
  if (!node.isUnchangedOnRecord) return span;
  return `at least ${span}: no change since records began, ${formatDate(node.healthChangedSec)}`;
}
