// Open work per leaf budget, for the split editor's warning before a leaf becomes a parent
// (setChildren refuses that while the leaf has pending or running jobs: ADR 030).
import "server-only";
import { getDb } from "./db/app-db";

export type OpenJobCounts = { pending: number; running: number };

/** Pending and running jobs per budget id, for budgets that have any. */
export async function countOpenJobsByBudget(): Promise<Map<string, OpenJobCounts>> {
  const rows = await getDb().job.groupBy({
    by: ["budgetId", "state"],
    where: { state: { in: ["pending", "running"] } },
    _count: { _all: true },
  });
  const counts = new Map<string, OpenJobCounts>();
  for (const row of rows) {
    const entry = counts.get(row.budgetId) ?? { pending: 0, running: 0 };
    if (row.state === "pending") entry.pending += row._count._all;
    else entry.running += row._count._all;
    counts.set(row.budgetId, entry);
  }
  return counts;
}
