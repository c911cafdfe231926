// The demo lab (docs/concepts.md), idempotent: `npm run db:seed` twice leaves one lab. A fresh
// lab also gets 35 days of history up to the app clock's now (lib/demo/lab-history.ts).
import { readAppNow } from "../lib/data/db/app-clock";
import { createPrismaClient } from "../lib/data/db/client";
import { HISTORY_DAYS, historyStartSec, simulateLabHistory } from "../lib/demo/lab-history";
import { buildLabOrg, DEMO_ORG_SEED } from "../lib/demo/lab-org";
import { upsertOrg } from "../lib/demo/seed-org";
import { insertLabHistory } from "../lib/demo/seed-history";

/** The seed of the demo history's workload. */
export const DEMO_HISTORY_SEED = 2026;

export type SeedOptions = {
  /** Default true: simulate and store the history when the lab has no job yet. */
  withHistory?: boolean;
  /** Days of history before today (UTC); default 35 (tests use fewer). */
  historyDays?: number;
  /** Progress lines (the history takes a while). */
  log?: (line: string) => void;
};

/** Seeds the demo lab into the database at `databaseUrl`; returns a one-line summary. */
export async function seedDemoLab(databaseUrl: string, options: SeedOptions = {}): Promise<string> {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    const endSec = Math.floor((await readAppNow(db)).getTime() / 1000);
    const org = buildLabOrg(DEMO_ORG_SEED);
    const days = options.historyDays ?? HISTORY_DAYS;
    await upsertOrg(db, org, new Date(historyStartSec(endSec, days) * 1000));
    let history = "";
    if (options.withHistory !== false && (await db.job.count()) === 0) {
      const startedMs = performance.now();
      const simulated = simulateLabHistory({ org, endSec, seed: DEMO_HISTORY_SEED, days });
      const simulatedMs = performance.now() - startedMs;
      options.log?.(`history: simulated in ${(simulatedMs / 1000).toFixed(1)} s`);
      const counts = await insertLabHistory(db, simulated);
      const storedMs = performance.now() - startedMs - simulatedMs;
      history =
        `; history of ${((endSec - simulated.startSec) / 86_400).toFixed(1)} days: ` +
        `${counts.jobs} jobs, ${counts.runs} runs, ${counts.decisions} decisions, ` +
        `${counts.rollupRows} hourly roll-ups (simulated ${(simulatedMs / 1000).toFixed(1)} s, ` +
        `stored ${(storedMs / 1000).toFixed(1)} s)`;
    }
    const [users, nodes, clusters, gpus] = await Promise.all([
      db.user.count(),
      db.budgetNode.count(),
      db.cluster.count(),
      db.clusterNode.aggregate({ _sum: { gpus: true } }),
    ]);
    return `${users} users, ${nodes} budget nodes, ${clusters} clusters, ${gpus._sum.gpus ?? 0} GPUs${history}`;
  } finally {
    await db.$disconnect();
  }
}
