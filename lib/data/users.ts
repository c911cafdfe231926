import "server-only";
import { hashToken } from "./token-hash";

export { hashToken };
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import { ensureRootBudget } from "./site-root";

export type SessionUser = { id: string; email: string; name: string; isAdmin: boolean };

const USER_COLUMNS = { id: true, email: true, name: true, isAdmin: true } as const;

export async function findUserByEmail(email: string): Promise<SessionUser | null> {
  return getDb().user.findUnique({ where: { email: email.toLowerCase() }, select: USER_COLUMNS });
}

export async function findUserById(id: string): Promise<SessionUser | null> {
  return getDb().user.findUnique({ where: { id }, select: USER_COLUMNS });
}

/** A demo user (a row the seed marked `isDemo`) by email, or null for every other account. */
export async function findDemoUser(email: string): Promise<SessionUser | null> {
  return getDb().user.findFirst({
    where: { email: email.toLowerCase(), isDemo: true },
    select: USER_COLUMNS,
  });
}

/** Demo users, for the sign-in picker (demo mode only). */
export async function listDemoUsers(): Promise<SessionUser[]> {
  return getDb().user.findMany({
    where: { isDemo: true },
    select: USER_COLUMNS,
    orderBy: [{ isAdmin: "desc" }, { name: "asc" }],
  });
}

/**
 * A person signing in through the site's identity provider: a first sign-in creates their account
 * (no rights). `adminEmails` is ALLOT_ADMINS (lib/env.ts): when it is a list, the person is an
 * admin exactly when their email is on it, from this sign-in on; when null, their admin flag is
 * left as it is. An admin signing in to a site that has no budget tree yet gets its root, so the
 * first admin has something to split.
 */
export async function signInSsoUser(
  email: string,
  name: string,
  adminEmails: readonly string[] | null,
): Promise<SessionUser> {
  const address = email.toLowerCase();
  const isListed = adminEmails?.includes(address);
  const user = await getDb().user.upsert({
    where: { email: address },
    create: { email: address, name, isAdmin: isListed ?? false },
    update: isListed === undefined ? {} : { isAdmin: isListed },
    select: USER_COLUMNS,
  });
  if (user.isAdmin) await ensureRootBudget(getDb());
  return user;
}

/** lastUsedAt is written at most this often per token, so a busy script costs no extra writes. */
export const LAST_USED_WRITE_MS = 60_000;

/**
 * Keeps a token's lastUsedAt up to date, writing at most once per LAST_USED_WRITE_MS: personal
 * and cluster tokens alike.
 */
export async function noteTokenUse(
  token: { id: string; lastUsedAt: Date | null },
  now: Date = new Date(),
): Promise<void> {
  if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < LAST_USED_WRITE_MS) return;
  // Conditional, so two replicas (or two parallel calls) write it once.
  await getDb().apiToken.updateMany({
    where: {
      id: token.id,
      OR: [
        { lastUsedAt: null },
        { lastUsedAt: { lte: new Date(now.getTime() - LAST_USED_WRITE_MS) } },
      ],
    },
    data: { lastUsedAt: now },
  });
}

/**
 * The person behind a personal API token, or null for unknown, revoked and cluster tokens.
 * An expired token throws a 401 that says so. Keeps the token's lastUsedAt up to date, within
 * LAST_USED_WRITE_MS.
 */
export async function findUserByToken(
  token: string,
  now: Date = new Date(),
): Promise<SessionUser | null> {
  const db = getDb();
  // One round trip for the token and its owner (Prisma's select of the relation takes two):
  // every API call by token starts here, so under load it is a third of a cached read's cost.
  const [row] = await db.$queryRaw<TokenOwnerRow[]>`
    SELECT t.id AS "tokenId", t.kind::text AS kind, t."revokedAt", t."expiresAt", t."lastUsedAt",
           u.id, u.email, u.name, u."isAdmin"
    FROM api_tokens t LEFT JOIN users u ON u.id = t."userId"
    WHERE t."tokenHash" = ${hashToken(token)}`;
  if (!row || row.revokedAt || row.kind !== "personal" || row.id === null) return null;
  if (row.expiresAt && row.expiresAt <= now) {
    throw new AppError(
      "unauthorized",
      `This token expired at ${row.expiresAt.toISOString()}: create a new one on the tokens page.`,
    );
  }
  await noteTokenUse({ id: row.tokenId, lastUsedAt: row.lastUsedAt }, now);
  return { id: row.id, email: row.email!, name: row.name!, isAdmin: row.isAdmin! };
}

type TokenOwnerRow = {
  tokenId: string;
  kind: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  /** The owner's columns: null for a cluster token (no owner). */
  id: string | null;
  email: string | null;
  name: string | null;
  isAdmin: boolean | null;
};

export type RoleLabel = "admin" | "program lead" | "project lead" | "researcher";

/** What to call a person in the header: their highest place in the tree. */
export async function getRoleLabel(user: SessionUser): Promise<RoleLabel> {
  if (user.isAdmin) return "admin";
  const leads = await getDb().budgetLead.findMany({
    where: { userId: user.id },
    select: { node: { select: { parentId: true, parent: { select: { parentId: true } } } } },
  });
  if (leads.some((lead) => lead.node.parent !== null && lead.node.parent.parentId === null)) {
    return "program lead";
  }
  return leads.length > 0 ? "project lead" : "researcher";
}
