import type { NodeHealth } from "../engine";

// GPUs in service (ADR 099): a healthy node, and a draining node until its last run ends. One
// rule for the review's roll-ups, the demo's seeded drains and the simulation tables, read from
// the runs' records. The simulator follows it as events happen (`lib/sim/sim-state.ts`).

/** A run's time on a node; `endSec` is Infinity while it runs. */
export type NodeSpan = { startSec: number; endSec: number };

/**
 * When a node draining from `fromSec` (until `toSec`, its next health change) emptied: the end of
 * the last run on it that overlaps the drain, or `fromSec` if none did. Infinity while one runs.
 * A result before `toSec` is a drain that finished; the node is out of service from then.
 *
 * @example drainEmptiedAtSec([{ startSec: 0, endSec: 1800 }], 600, 7200) // 1800
 */
export function drainEmptiedAtSec(
  spans: readonly NodeSpan[],
  fromSec: number,
  toSec: number,
): number {
  let emptySec = fromSec;
  for (const span of spans) {
    if (span.startSec < toSec && span.endSec > fromSec) emptySec = Math.max(emptySec, span.endSec);
  }
  return emptySec;
}

/**
 * The spans in which a node was in service, from its health changes in time order (healthy
 * before the first; a change to the health it already has changes nothing) and the runs on it:
 * healthy spans whole, draining ones until the node emptied, down ones not at all. The first span
 * starts at -Infinity and the last ends at Infinity; callers clip them to their range.
 *
 * @example inServiceSpans([{ atSec: 600, health: "draining" }], [{ startSec: 0, endSec: 1800 }])
 * // [{ startSec: -Infinity, endSec: 1800 }]
 */
export function inServiceSpans(
  changes: readonly { atSec: number; health: NodeHealth }[],
  runs: readonly NodeSpan[],
): NodeSpan[] {
  const spans: NodeSpan[] = [];
  let fromSec = Number.NEGATIVE_INFINITY;
  let health: NodeHealth = "healthy";
  const close = (toSec: number): void => {
    const endSec =
      health === "draining" ? Math.min(drainEmptiedAtSec(runs, fromSec, toSec), toSec) : toSec;
    if (health !== "down" && endSec > fromSec) spans.push({ startSec: fromSec, endSec });
  };
  for (const change of changes) {
    if (change.health === health) continue;
    close(change.atSec);
    fromSec = change.atSec;
    health = change.health;
  }
  close(Number.POSITIVE_INFINITY);
  return spans;
}

/**
 * The spans of runs by the nodes they held GPUs on; a run still going (`endSec` null) lasts to
 * Infinity.
 *
 * @example spansByNode([{ startSec: 0, endSec: null, nodes: [2, 5] }]).get(5) // [{ 0, Infinity }]
 */
export function spansByNode(
  runs: Iterable<{ startSec: number; endSec: number | null; nodes: readonly number[] }>,
): Map<number, NodeSpan[]> {
  const byNode = new Map<number, NodeSpan[]>();
  for (const run of runs) {
    for (const node of run.nodes) {
      const list = byNode.get(node) ?? [];
      list.push({ startSec: run.startSec, endSec: run.endSec ?? Number.POSITIVE_INFINITY });
      byNode.set(node, list);
    }
  }
  return byNode;
}
