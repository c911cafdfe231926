// The demo lab (DESIGN section 1), idempotent: `npm run db:seed` twice leaves one lab.
import { createPrismaClient } from "../lib/data/client";
import { buildLabOrg, DEMO_ORG_SEED } from "../lib/demo/lab-org";
import { upsertOrg } from "../lib/testing/factories";

/** Seeds the demo lab into the database at `databaseUrl`; returns a one-line summary. */
export async function seedDemoLab(databaseUrl: string): Promise<string> {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    await upsertOrg(db, buildLabOrg(DEMO_ORG_SEED));
    const [users, nodes, clusters, gpus] = await Promise.all([
      db.user.count(),
      db.budgetNode.count(),
      db.cluster.count(),
      db.clusterNode.aggregate({ _sum: { gpus: true } }),
    ]);
    return `${users} users, ${nodes} budget nodes, ${clusters} clusters, ${gpus._sum.gpus ?? 0} GPUs`;
  } finally {
    await db.$disconnect();
  }
}
