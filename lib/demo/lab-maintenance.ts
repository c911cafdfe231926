import type { Random } from "../sim/random";
import type { SimCluster } from "../sim/scenario";
import type { ScenarioFile } from "../sim/scenario-schema";

type NodeEvent = NonNullable<ScenarioFile["nodeEvents"]>[number];

/** Planned drains per node per day, and failures (a node going down) per node per day. */
const DRAINS_PER_NODE_DAY = 1 / 60;
const FAILURES_PER_NODE_DAY = 1 / 200;

/**
 * Node health changes of the lab: planned maintenance (a node set `draining`, back `healthy`
 * 4-12 h later) about once per node every two months, and failures (`down`, back 2-6 h later)
 * about once per node every 200 days. Events of one node never overlap. Seeded.
 *
 * @example planLabMaintenance(createRandom(1), LAB_CLUSTERS, 30 * 86_400).length // ~110
 */
export function planLabMaintenance(
  random: Random,
  clusters: readonly SimCluster[],
  horizonSec: number,
): NodeEvent[] {
  const events: NodeEvent[] = [];
  const days = horizonSec / 86_400;
  for (const cluster of clusters) {
    const freeFromSec = new Array<number>(cluster.nodes).fill(0);
    for (const [state, perNodeDay, minHours, maxHours] of [
      ["draining", DRAINS_PER_NODE_DAY, 4, 12],
      ["down", FAILURES_PER_NODE_DAY, 2, 6],
    ] as const) {
      const count = Math.round(perNodeDay * cluster.nodes * days);
      for (let made = 0; made < count; made++) {
        const node = random.int(0, cluster.nodes - 1);
        const atSec = random.int(0, horizonSec - 1);
        const backSec = atSec + 3600 * random.int(minHours, maxHours);
        if (atSec < (freeFromSec[node] ?? 0) || backSec >= horizonSec) continue;
        freeFromSec[node] = backSec;
        events.push(
          { at: atSec, cluster: cluster.name, node, state },
          { at: backSec, cluster: cluster.name, node, state: "healthy" },
        );
      }
    }
  }
  return events.sort((a, b) => Number(a.at) - Number(b.at));
}
