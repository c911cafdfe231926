// The seeded month's node changes, carried onto the nodes themselves (lib/demo/seed-history.ts).
import { fromSec } from "../data/db/epoch";
import type { Tx } from "../data/tick/load-state";
import type { LabHistory } from "./lab-history";

/**
 * Dates each node's state by its last seeded change when that change put it in the state it is
 * in now: the nodes page reads "in this state for" from the node and "set at" from the change,
 * and a node row made at seed time would otherwise seem to have changed then.
 */
export async function dateNodeStates(
  tx: Tx,
  history: Pick<LabHistory, "nodeChanges">,
  clusterIdOf: ReadonlyMap<string, string>,
): Promise<void> {
  const lastByNode = new Map<string, LabHistory["nodeChanges"][number]>();
  for (const change of history.nodeChanges) {
    const key = `${change.cluster}/${change.node}`;
    const last = lastByNode.get(key);
    if (!last || change.atSec >= last.atSec) lastByNode.set(key, change);
  }
  for (const change of lastByNode.values()) {
    const clusterId = clusterIdOf.get(change.cluster);
    if (!clusterId) continue;
    await tx.clusterNode.updateMany({
      where: { clusterId, index: change.node, health: change.health },
      data: { healthChangedAt: fromSec(change.atSec) },
    });
  }
}
