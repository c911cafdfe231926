// One seeded factory module for the demo seed and the tests: it writes an org
// (users, budget tree with leads and members, clusters with nodes) idempotently.
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../data/db/client";
import type { LabOrg, OrgCluster, OrgNode, OrgUser } from "./lab-org";

/** Inserts missing users; returns id by email for all of them. */
export async function upsertUsers(db: Db, users: OrgUser[]): Promise<Map<string, string>> {
  await db.user.createMany({ data: users, skipDuplicates: true });
  const rows = await db.user.findMany({
    where: { email: { in: users.map((user) => user.email) } },
    select: { id: true, email: true },
  });
  return new Map(rows.map((row) => [row.email, row.id]));
}

/** Inserts the clusters and their nodes that are missing. */
export async function upsertClusters(db: Db, clusters: OrgCluster[]): Promise<void> {
  for (const cluster of clusters) {
    const row = await db.cluster.upsert({
      where: { name: cluster.name },
      create: { name: cluster.name, gpuType: cluster.gpuType },
      update: {},
      select: { id: true },
    });
    await db.clusterNode.createMany({
      data: Array.from({ length: cluster.nodes }, (_, index) => ({
        clusterId: row.id,
        index,
        gpus: cluster.gpusPerNode,
      })),
      skipDuplicates: true,
    });
  }
}

/**
 * Inserts the tree below `parentId` (null for the root) where a node of that name is
 * missing; existing nodes keep their weights. A new node's first weight is in force from
 * `since` (default now). Returns the id of `node`.
 */
export async function upsertTree(
  db: Db,
  node: OrgNode,
  parentId: string | null,
  userIds: Map<string, string>,
  since?: Date,
): Promise<string> {
  // A node a lead removed stays removed: the seed finds it (live ones first) and skips it.
  const existing = await db.budgetNode.findFirst({
    where: { parentId, name: node.name },
    orderBy: { removedAt: { sort: "asc", nulls: "first" } },
    select: { id: true, removedAt: true },
  });
  if (existing?.removedAt) return existing.id;
  const id =
    existing?.id ??
    (
      await db.budgetNode.create({
        data: { parentId, name: node.name, weight: node.weight },
        select: { id: true },
      })
    ).id;
  if (!existing) {
    await db.weightChange.create({
      data: {
        nodeId: id,
        weightBefore: null,
        weightAfter: node.weight,
        ...(since ? { at: since } : {}),
      },
    });
  }
  const idsOf = (emails: string[]) =>
    emails.flatMap((email) => {
      const userId = userIds.get(email);
      return userId ? [{ nodeId: id, userId }] : [];
    });
  await db.budgetLead.createMany({ data: idsOf(node.leads), skipDuplicates: true });
  await db.budgetMember.createMany({ data: idsOf(node.members), skipDuplicates: true });
  for (const child of node.children) await upsertTree(db, child, id, userIds, since);
  return id;
}

/**
 * Writes a whole org; running it twice changes nothing the second time. New nodes' weights are
 * in force from `since` (default now; the demo seed backdates them to the start of its history).
 */
export async function upsertOrg(
  db: Db,
  org: LabOrg,
  since?: Date,
): Promise<{ rootId: string; userIds: Map<string, string> }> {
  const userIds = await upsertUsers(db, org.users);
  await upsertClusters(db, org.clusters);
  const rootId = await upsertTree(db, org.root, null, userIds, since);
  return { rootId, userIds };
}

/**
 * A personal API token of `userId` (Authorization: Bearer ...), stored hashed like a real one;
 * returns the plaintext. The app has no screen for these yet: tests and scripts make them here.
 */
export async function createPersonalToken(db: Db, userId: string, name: string): Promise<string> {
  const token = `allot_p_${randomBytes(24).toString("base64url")}`;
  await db.apiToken.create({
    // The hash of lib/data/users.ts hashToken (that module is server-only; the seed runs in tsx).
    data: {
      kind: "personal",
      name,
      tokenHash: createHash("sha256").update(token).digest("hex"),
      prefix: token.slice(0, 12),
      userId,
    },
  });
  return token;
}
