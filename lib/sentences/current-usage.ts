// A waiting job's stored reason with its budgets' usage of share as the cluster's last ranking
// has it. The tick rewrites a stored reason only when a figure other than the moment and the
// usage ratios changes (waitKeyOf in lib/data/tick/tick.ts): the ratios move on every pass, and
// the ones stored with an unchanged reason would lag the ranking the same page shows beside it.
import type { BudgetRef, Parting, PartingSide, Reason } from "../engine";

/** A node of a stored ranking, as far as usage goes (RankingRow). */
export type UsageRow = { id: string; path: string; usageRatio: number | null };

/**
 * A function giving a stored reason with the usage ratio of every budget it names (the job's,
 * the one holding the most GPUs or the kept nodes, and both sides where their paths part) taken
 * from `ranking`; a budget the ranking lacks keeps its stored ratio. Only wait reasons change:
 * starts and preemptions are history, told with the figures of their moment. Not mutated. The
 * lookups are built once, for every reason of a queue.
 *
 * @example
 * currentUsageOf([{ id: "r", path: "language/riley", usageRatio: 1.31 }])(stored)
 * // the same reason, riley at 1.31 wherever it is named
 */
export function currentUsageOf(ranking: readonly UsageRow[]): (reason: unknown) => unknown {
  const byId = new Map(ranking.map((row) => [row.id, row.usageRatio]));
  const byPath = new Map(ranking.map((row) => [row.path, row.usageRatio]));
  const budget = (ref: BudgetRef): BudgetRef =>
    byId.has(ref.id) ? { ...ref, usageRatio: byId.get(ref.id) ?? null } : ref;
  const side = (node: PartingSide): PartingSide =>
    byPath.has(node.path) ? { ...node, usageRatio: byPath.get(node.path) ?? null } : node;
  const parting = (value: Parting | null): Parting | null =>
    value && { higher: side(value.higher), lower: side(value.lower) };
  return (reason) => {
    if (!reason || typeof reason !== "object" || !("rule" in reason)) return reason;
    const wait = reason as Reason;
    switch (wait.rule) {
      case "wait-resources": {
        const most = wait.heldMostBy;
        return {
          ...wait,
          budget: budget(wait.budget),
          ...(most
            ? {
                heldMostBy: {
                  ...most,
                  budget: budget(most.budget),
                  parting: parting(most.parting),
                },
              }
            : {}),
        };
      }
      case "wait-reservation":
        return {
          ...wait,
          budget: budget(wait.budget),
          holder: { ...wait.holder, budget: budget(wait.holder.budget) },
          parting: parting(wait.parting),
        };
      case "wait-unallocated":
        return { ...wait, budget: budget(wait.budget) };
      default:
        return reason;
    }
  };
}
