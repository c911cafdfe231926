// Database test files share one database: a test that makes a cluster of its own removes it,
// with its jobs, runs and decisions, when done, so that no other file sees it.
import type { Db } from "../data/db/client";

export async function removeTestCluster(db: Db, name: string): Promise<void> {
  const cluster = await db.cluster.findUnique({ where: { name }, select: { id: true } });
  if (!cluster) return;
  await db.decision.deleteMany({ where: { clusterId: cluster.id } });
  await db.run.deleteMany({ where: { clusterId: cluster.id } });
  await db.job.deleteMany({ where: { clusterId: cluster.id } });
  // Nodes, health history, events, roll-ups and tokens go with it (on delete cascade).
  await db.cluster.delete({ where: { id: cluster.id } });
}
