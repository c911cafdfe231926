import { validateBudgetTree, type BudgetNode, type BudgetTree } from "../engine";

/** A node of the tree as stored: its place, whatever its weight was over time. */
export type TreeNodeShape = Pick<BudgetNode, "id" | "parentId" | "name">;

/** The weight of `nodeId` from `atSec` on; null means the node stopped existing then. */
export type WeightEvent = { nodeId: string; atSec: number; weight: number | null };

/** A stretch of time during which the same weights were in force. */
export type TreeEpoch = {
  fromSec: number;
  /** Exclusive; Infinity for the epoch still in force. */
  toSec: number;
  tree: BudgetTree;
};

/**
 * Splits time into epochs of constant weights and builds the budget tree in force in each
 * (docs/concepts.md: reports for a past hour use the weights in force in that hour). A node
 * exists from its first weight event until an event sets its weight to null; a node whose
 * parent does not exist at that time is left out with its subtree. Events at the same second
 * apply together. Epochs before the first event are not returned.
 *
 * @example
 * // weight of "a" changes from 1 to 3 at 7200: two epochs, [0, 7200) and [7200, Infinity)
 * buildTreeEpochs(shapes, [{ nodeId: "a", atSec: 0, weight: 1 }, { nodeId: "a", atSec: 7200, weight: 3 }, ...])
 */
export function buildTreeEpochs(
  shapes: readonly TreeNodeShape[],
  events: readonly WeightEvent[],
): TreeEpoch[] {
  const sorted = [...events].sort((a, b) => a.atSec - b.atSec || a.nodeId.localeCompare(b.nodeId));
  const weights = new Map<string, number>();
  const epochs: TreeEpoch[] = [];
  let index = 0;
  while (index < sorted.length) {
    const fromSec = sorted[index]!.atSec;
    while (index < sorted.length && sorted[index]!.atSec === fromSec) {
      const event = sorted[index]!;
      if (event.weight === null) weights.delete(event.nodeId);
      else weights.set(event.nodeId, event.weight);
      index += 1;
    }
    const toSec = index < sorted.length ? sorted[index]!.atSec : Infinity;
    const tree = treeOf(shapes, weights);
    if (tree) epochs.push({ fromSec, toSec, tree });
  }
  return epochs;
}

function treeOf(
  shapes: readonly TreeNodeShape[],
  weights: ReadonlyMap<string, number>,
): BudgetTree | null {
  const present = new Map(shapes.filter((shape) => weights.has(shape.id)).map((s) => [s.id, s]));
  // Keep only nodes whose whole ancestry exists at this time.
  const isRooted = (id: string, seen = new Set<string>()): boolean => {
    const shape = present.get(id);
    if (!shape || seen.has(id)) return false;
    if (shape.parentId === null) return true;
    seen.add(id);
    return isRooted(shape.parentId, seen);
  };
  const nodes: BudgetNode[] = [];
  for (const shape of present.values()) {
    if (isRooted(shape.id)) nodes.push({ ...shape, weight: weights.get(shape.id)! });
  }
  if (nodes.length === 0) return null;
  const result = validateBudgetTree(nodes);
  if (!result.ok) {
    throw new Error(`The tree in force is invalid: ${result.issues[0]?.message ?? "unknown"}`);
  }
  return result.value;
}

/** The epoch in force at `atSec`, or undefined before the first one. Epochs must be sorted. */
export function epochAt(epochs: readonly TreeEpoch[], atSec: number): TreeEpoch | undefined {
  let low = 0;
  let high = epochs.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const epoch = epochs[middle]!;
    if (atSec < epoch.fromSec) high = middle - 1;
    else if (atSec >= epoch.toSec) low = middle + 1;
    else return epoch;
  }
  return undefined;
}
