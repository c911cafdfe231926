// ALLOT_ADMINS at start (docs/security.md): sessions and personal tokens read a person's admin
// flag on every request, so making the flags match the list when the server starts is what
// takes admin from someone taken off it, token and open session alike, without waiting for
// their next sign-in (which applies the list too: lib/data/users.ts signInSsoUser).
import type { Db } from "./db/client";

/**
 * Makes every account's admin flag say whether its email is on `emails` (lower-case): returns
 * the emails of the accounts that became admins and of those that stopped being ones.
 *
 * @example await applyAdminList(db, ["ada@lab.example"]) // { granted: [], revoked: ["eve@lab.example"] }
 */
export async function applyAdminList(
  db: Db,
  emails: readonly string[],
): Promise<{ granted: string[]; revoked: string[] }> {
  const listed = [...emails];
  return db.$transaction(async (tx) => {
    const toGrant = await tx.user.findMany({
      where: { email: { in: listed }, isAdmin: false },
      select: { id: true, email: true },
      orderBy: { email: "asc" },
    });
    const toRevoke = await tx.user.findMany({
      where: { email: { notIn: listed }, isAdmin: true },
      select: { id: true, email: true },
      orderBy: { email: "asc" },
    });
    const idsOf = (users: { id: string }[]) => users.map((user) => user.id);
    await tx.user.updateMany({ where: { id: { in: idsOf(toGrant) } }, data: { isAdmin: true } });
    await tx.user.updateMany({ where: { id: { in: idsOf(toRevoke) } }, data: { isAdmin: false } });
    return {
      granted: toGrant.map((user) => user.email),
      revoked: toRevoke.map((user) => user.email),
    };
  });
}
