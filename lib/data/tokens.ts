// Cluster tokens for executors: created and revoked by admins, shown once, stored hashed.
import "server-only";
import { randomBytes } from "node:crypto";
import { getDb } from "./db/app-db";
import type { Db } from "./db/client";
import { AppError } from "../errors";
import { hashToken, noteTokenUse } from "./users";

export type TokenView = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  /** Kept up to date within a minute when the executor authenticates; null: never used. */
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** Creates a cluster token; the plaintext is returned once and never stored. */
export async function createClusterToken(
  clusterName: string,
  name: string,
  createdBy: string,
): Promise<{ token: string; view: TokenView }> {
  const db = getDb();
  const cluster = await db.cluster.findUnique({
    where: { name: clusterName },
    select: { id: true },
  });
  if (!cluster) throw new AppError("not_found", `No cluster is named "${clusterName}".`);
  return insertClusterToken(db, cluster.id, name, createdBy);
}

/**
 * Stores a new token of the cluster `clusterId` through `db`, the client or a transaction's (a
 * registration and its token are one write); the plaintext is returned once and never stored.
 */
export async function insertClusterToken(
  db: Pick<Db, "apiToken">,
  clusterId: string,
  name: string,
  createdBy: string,
): Promise<{ token: string; view: TokenView }> {
  const token = `allot_c_${randomBytes(24).toString("base64url")}`;
  const row = await db.apiToken.create({
    data: {
      kind: "cluster",
      name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, 12),
      clusterId,
      userId: createdBy,
    },
  });
  return { token, view: toView(row) };
}

function toView(row: {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): TokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export async function listClusterTokens(clusterName: string): Promise<TokenView[]> {
  const rows = await getDb().apiToken.findMany({
    where: { kind: "cluster", cluster: { name: clusterName } },
    orderBy: { createdAt: "desc" },
  });
  return rows.map(toView);
}

/**
 * Revokes a token of the cluster `clusterName` (one already revoked stays as it is). A token of
 * another cluster, or none, is not found: a form for one cluster never revokes another's.
 */
export async function revokeClusterToken(clusterName: string, tokenId: string): Promise<void> {
  const where = { id: tokenId, kind: "cluster" as const, cluster: { name: clusterName } };
  const found = await getDb().apiToken.count({ where });
  if (found === 0) {
    throw new AppError("not_found", `Cluster "${clusterName}" has no token with that id.`);
  }
  await getDb().apiToken.updateMany({
    where: { ...where, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/**
 * The cluster a live cluster token belongs to, or null for unknown, revoked or personal tokens.
 * Keeps the token's lastUsedAt up to date (at most one write a minute, as personal tokens).
 */
export async function findClusterByToken(
  token: string,
  now: Date = new Date(),
): Promise<string | null> {
  const row = await getDb().apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      kind: true,
      revokedAt: true,
      lastUsedAt: true,
      cluster: { select: { name: true } },
    },
  });
  if (!row || row.revokedAt || row.kind !== "cluster" || !row.cluster) return null;
  await noteTokenUse(row, now);
  return row.cluster.name;
}
