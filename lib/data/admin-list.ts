// ALLOT_ADMINS at start (docs/security.md): sessions and personal tokens read a person's admin
// flag on every request, so making the flags match the list when the server starts is what
// takes admin from someone taken off it, token and open session alike, without waiting for
// their next sign-in (which applies the list too: lib/data/users.ts signInSsoUser).
import type { Db } from "./db/client";

/**
 * Makes every account's admin flag say whether its email is on `emails` (lower-case): returns
 * how many accounts became admins and how many stopped being ones.
 *
 * @example await applyAdminList(db, ["ada@lab.example"]) // { granted: 0, revoked: 1 }
 */
export async function applyAdminList(
  db: Db,
  emails: readonly string[],
): Promise<{ granted: number; revoked: number }> {
  const listed = [...emails];
  const [granted, revoked] = await db.$transaction([
    db.user.updateMany({
      where: { email: { in: listed }, isAdmin: false },
      data: { isAdmin: true },
    }),
    db.user.updateMany({
      where: { email: { notIn: listed }, isAdmin: true },
      data: { isAdmin: false },
    }),
  ]);
  return { granted: granted.count, revoked: revoked.count };
}
