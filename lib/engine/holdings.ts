import type { BudgetTree } from "./types";

/**
 * Allocated GPUs held right now by each node of the budget tree (a run counts for its leaf and
 * every ancestor), kept up to date through a pass as runs start and end. Backs the share guard
 * on preemption (ADR 011).
 */
export type Holdings = {
  /** Adds (or with negative `gpus`, removes) allocated GPUs held by `budgetId`'s subtree. */
  add(budgetId: string, gpus: number): void;
  /**
   * The share guard: whether a job of `preemptorId` taking `jobGpus` GPUs may preempt a run of
   * `victimId` holding `victimGpus`. Compared where the two budgets' paths part (the two
   * siblings below their common ancestor), the preemptor's GPUs held per unit of share after
   * the start must not exceed the victim's after the preemption, or must stay below the
   * victim's before it (Kueue's two fair-sharing preemption strategies). Always false for one
   * budget. Monotone in `victimGpus`: what it refuses for a victim, it refuses for a larger one.
   */
  mayPreempt(preemptorId: string, victimId: string, jobGpus: number, victimGpus: number): boolean;
  /** `mayPreempt` by tree node index (`nodeIndexOf`), for loops that ask it of many runs. */
  mayPreemptAt(preemptor: number, victim: number, jobGpus: number, victimGpus: number): boolean;
  /** The tree node index of a budget id, -1 for an unknown one. */
  nodeIndexOf(budgetId: string): number;
  /** Allocated GPUs held by a node's subtree; 0 for unknown ids. */
  heldGpus(budgetId: string): number;
  /** A copy as of now, which later `add`s to either do not reach. */
  snapshot(): Holdings;
};

/**
 * Creates holdings for `tree` from allocated runs (`{ budgetId, gpus }`); runs of unknown
 * budgets are ignored (they never hold an allocation).
 *
 * @example
 * const holdings = createHoldings(tree, [{ budgetId: "a", gpus: 8 }]);
 * holdings.mayPreempt("b", "a", 4, 4) // true: b would hold 4, a keeps 4, equal shares
 * holdings.mayPreempt("b", "a", 8, 8) // false: b would hold all 8, as a does now
 */
export function createHoldings(
  tree: BudgetTree,
  allocatedRuns: Iterable<{ budgetId: string; gpus: number }>,
): Holdings {
  // A plain array: a typed array this small costs more to make than to use.
  const holdings = new HeldByNode(tree, new Array<number>(tree.nodes.length).fill(0));
  for (const run of allocatedRuns) holdings.add(run.budgetId, run.gpus);
  return holdings;
}

/**
 * Holdings on `held`, allocated GPUs per tree node index (a run counted for its leaf and every
 * ancestor, as `add` counts it), taken as they are: later `add`s change the array.
 *
 * @example createHoldingsOn(tree, heldByNode.slice()).heldGpus("llm")
 */
export function createHoldingsOn(tree: BudgetTree, held: number[]): Holdings {
  return new HeldByNode(tree, held);
}

/**
 * Adds `gpus` to tree node `index` and every ancestor of it in `held` (GPUs per tree node index),
 * as `Holdings.add` does for a budget; nothing for index -1 (a budget not in the tree).
 */
export function addAlongPath(tree: BudgetTree, held: number[], index: number, gpus: number): void {
  const { nodes } = tree;
  for (let at = index; at >= 0; at = nodes[at]!.parentIndex) held[at] = held[at]! + gpus;
}

/**
 * Holdings on `held`, GPUs per tree node index (changed in place by `add`). A class: a pass makes
 * one, and methods on the prototype cost nothing to make.
 */
class HeldByNode implements Holdings {
  constructor(
    private readonly tree: BudgetTree,
    private readonly held: number[],
  ) {}

  add(budgetId: string, gpus: number): void {
    const index = this.tree.indexById[budgetId];
    if (index !== undefined) addAlongPath(this.tree, this.held, index, gpus);
  }

  nodeIndexOf(budgetId: string): number {
    return this.tree.indexById[budgetId] ?? -1;
  }

  mayPreempt(preemptorId: string, victimId: string, jobGpus: number, victimGpus: number): boolean {
    return this.mayPreemptAt(
      this.nodeIndexOf(preemptorId),
      this.nodeIndexOf(victimId),
      jobGpus,
      victimGpus,
    );
  }

  mayPreemptAt(preemptor: number, victim: number, jobGpus: number, victimGpus: number): boolean {
    const { nodes } = this.tree;
    const { held } = this;
    let a = preemptor;
    let b = victim;
    if (a < 0 || b < 0 || a === b) return false;
    while (nodes[a]!.depth > nodes[b]!.depth) a = nodes[a]!.parentIndex;
    while (nodes[b]!.depth > nodes[a]!.depth) b = nodes[b]!.parentIndex;
    if (a === b) return false;
    while (nodes[a]!.parentIndex !== nodes[b]!.parentIndex) {
      a = nodes[a]!.parentIndex;
      b = nodes[b]!.parentIndex;
    }
    const preemptorShare = nodes[a]!.effectiveShare;
    const victimShare = nodes[b]!.effectiveShare;
    if (preemptorShare <= 0) return false;
    if (victimShare <= 0) return true;
    // Kueue's two fair-sharing strategies, without dividing: the preemptor's GPUs per share
    // after the start at most the victim's after the preemption, or below the victim's before.
    const preemptorAfter = (held[a]! + jobGpus) * victimShare;
    return (
      preemptorAfter <= (held[b]! - victimGpus) * preemptorShare ||
      preemptorAfter < held[b]! * preemptorShare
    );
  }

  heldGpus(budgetId: string): number {
    const index = this.tree.indexById[budgetId];
    return index === undefined ? 0 : this.held[index]!;
  }

  snapshot(): Holdings {
    return new HeldByNode(this.tree, this.held.slice());
  }
}
