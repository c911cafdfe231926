// When a draining node empties (ADR 099): one rule for the review's roll-ups, the demo's seeded
// drains and the simulation tables, read from the runs' records. The simulator follows it as
// events happen (`lib/sim/sim-state.ts`).

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
 * The spans of runs by the nodes they held GPUs on.
 *
 * @example spansByNode(runs.map((run) => ({ startSec, endSec: run.endSec ?? Infinity, nodes })))
 */
export function spansByNode(
  runs: Iterable<NodeSpan & { nodes: readonly number[] }>,
): Map<number, NodeSpan[]> {
  const byNode = new Map<number, NodeSpan[]>();
  for (const run of runs) {
    for (const node of run.nodes) {
      const list = byNode.get(node) ?? [];
      list.push({ startSec: run.startSec, endSec: run.endSec });
      byNode.set(node, list);
    }
  }
  return byNode;
}
