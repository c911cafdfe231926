/**
 * Small integers for budget ids (internal to the engine): a pass looks up per-budget values in
 * arrays by slot instead of hashing the id of every run. Slots are handed out in the order ids
 * are first seen and never change.
 */
export type BudgetSlots = {
  /** Budget id per slot. */
  readonly ids: readonly string[];
  /** The slot of `budgetId`, a new one for an id not seen before. */
  slotOf(budgetId: string): number;
};

/**
 * Creates an empty set of budget slots.
 *
 * @example createBudgetSlots().slotOf("team-a") // 0
 */
export function createBudgetSlots(): BudgetSlots {
  const ids: string[] = [];
  const slotById = new Map<string, number>();
  return {
    ids,
    slotOf(budgetId) {
      let slot = slotById.get(budgetId);
      if (slot === undefined) {
        slot = ids.length;
        ids.push(budgetId);
        slotById.set(budgetId, slot);
      }
      return slot;
    },
  };
}
