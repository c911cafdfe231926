// Executor events are kept for their ids (a resend is a duplicate, docs/executor.md), which
// matters for minutes, not months: older ones are deleted, so the table and the metrics' read
// of each cluster's newest event stay small (docs/operations.md).
import type { Db } from "./db/client";
import { fromSec } from "./db/epoch";

/** How long an executor event is kept (app clock), from its receipt. */
export const EVENT_KEEP_SEC = 30 * 86_400;

/** Events deleted per statement, so that a first prune of a large table holds no long lock. */
const PRUNE_BATCH = 5_000;

/**
 * Deletes the executor events received more than EVENT_KEEP_SEC before `nowSec` (app clock),
 * cluster by cluster in batches; returns how many.
 */
export async function pruneExecutorEvents(db: Db, nowSec: number): Promise<number> {
  const before = fromSec(nowSec - EVENT_KEEP_SEC).toISOString();
  const clusters = await db.cluster.findMany({ select: { id: true } });
  let deleted = 0;
  for (const { id } of clusters) {
    for (;;) {
      const count = await db.$executeRaw`
        DELETE FROM executor_events WHERE id IN (
          SELECT id FROM executor_events
           WHERE "clusterId" = ${id} AND "receivedAt" < ${before}::timestamp(3)
           LIMIT ${PRUNE_BATCH})`;
      deleted += count;
      if (count < PRUNE_BATCH) break;
    }
  }
  return deleted;
}
