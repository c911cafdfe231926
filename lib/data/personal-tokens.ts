// Personal API tokens: each person creates, lists and revokes their own (the tokens page and
// /api/v1/tokens); admins also revoke anyone's, for a person who leaves. Shown once, stored as a SHA-256 hash, optionally expiring; the owner's
// rights are the token's rights (lib/auth.ts getApiCaller).
import "server-only";
import { randomBytes } from "node:crypto";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import { hashToken } from "./users";

export const PERSONAL_TOKEN_PREFIX = "allot_p_";
const DAY_MS = 24 * 3600 * 1000;

export type PersonalTokenView = {
  id: string;
  name: string;
  /** The first characters, to tell tokens apart; the rest is never shown again. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** null: the token never expires. */
  expiresAt: string | null;
  revokedAt: string | null;
};

const VIEW_COLUMNS = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;

type ViewRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

function toView(row: ViewRow): PersonalTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Creates a personal token for `userId`, expiring `expiresInDays` days from `now` (null:
 * never). The plaintext is returned once and never stored.
 */
export async function issuePersonalToken(
  userId: string,
  input: { name: string; expiresInDays: number | null },
  now: Date = new Date(),
): Promise<{ token: string; view: PersonalTokenView }> {
  const token = `${PERSONAL_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  const row = await getDb().apiToken.create({
    data: {
      kind: "personal",
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, 12),
      userId,
      expiresAt:
        input.expiresInDays === null
          ? null
          : new Date(now.getTime() + input.expiresInDays * DAY_MS),
    },
    select: VIEW_COLUMNS,
  });
  return { token, view: toView(row) };
}

/** The person's own personal tokens, newest first (admins too see only their own). */
export async function listPersonalTokens(userId: string): Promise<PersonalTokenView[]> {
  const rows = await getDb().apiToken.findMany({
    where: { kind: "personal", userId },
    orderBy: { createdAt: "desc" },
    select: VIEW_COLUMNS,
  });
  return rows.map(toView);
}

/** A personal token of someone else, as an admin sees it: whose it is. */
export type OwnedTokenView = PersonalTokenView & { owner: { name: string; email: string } };

/**
 * For admins: everyone else's personal tokens still in force (not revoked, not expired), by
 * owner, so that a person who leaves can be cut off at once rather than at expiry.
 */
export async function listOthersLiveTokens(
  adminId: string,
  now: Date = new Date(),
): Promise<OwnedTokenView[]> {
  const rows = await getDb().apiToken.findMany({
    where: {
      kind: "personal",
      userId: { not: adminId },
      revokedAt: null,
      OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
    },
    orderBy: [{ user: { name: "asc" } }, { createdAt: "desc" }],
    select: { ...VIEW_COLUMNS, user: { select: { name: true, email: true } } },
  });
  return rows.map(({ user, ...row }) => ({
    ...toView(row),
    owner: { name: user?.name ?? "(no owner)", email: user?.email ?? "" },
  }));
}

/**
 * Revokes a personal token: the caller's own, or, for an admin, anyone's. Revoking it again
 * changes nothing. Another person's token (to a non-admin), or a cluster token, is 404: its id
 * tells the caller nothing.
 */
export async function revokePersonalToken(
  caller: { id: string; isAdmin: boolean },
  tokenId: string,
): Promise<PersonalTokenView> {
  const db = getDb();
  const whose = caller.isAdmin ? {} : { userId: caller.id };
  await db.apiToken.updateMany({
    where: { id: tokenId, kind: "personal", ...whose, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  const row = await db.apiToken.findFirst({
    where: { id: tokenId, kind: "personal", ...whose },
    select: VIEW_COLUMNS,
  });
  if (!row) throw new AppError("not_found", "You have no token with that id.");
  return toView(row);
}
