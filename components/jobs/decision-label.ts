// The heading of a decision on the job page: what happened, in a word, beside its time.

const KIND_LABEL: Record<string, string> = {
  start: "Started",
  preempt: "Preempted",
  wait: "Waiting",
  drain: "Drain",
};

/**
 * A decision's heading by its kind, except a run ended by its node going down (nothing preempted
 * it, and its sentence says "Ended at ...: node 5 went down") and a run taken on from the
 * executor (Allot did not start it).
 *
 * @example labelDecision("preempt", "preempt-for-rank") // "Preempted"
 * @example labelDecision("preempt", "preempt-node-down") // "Ended"
 * @example labelDecision("start", "start-adopted") // "Adopted"
 */
export function labelDecision(kind: string, rule: string): string {
  if (rule === "preempt-node-down") return "Ended";
  if (rule === "start-adopted") return "Adopted";
  return KIND_LABEL[kind] ?? kind;
}
