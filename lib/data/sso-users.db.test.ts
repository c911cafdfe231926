// Single sign-on accounts: a first sign-in makes an account with no rights; ALLOT_ADMINS decides
// who is an admin; the first admin on a site with no tree gets its root. On a database of its
// own: the root must be missing at the start.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openScratchDatabase, type ScratchDatabase } from "../testing/scratch-database";
import { createPrismaClient, type Db } from "./db/client";
import { applyAdminList } from "./admin-list";
import { issuePersonalToken } from "./personal-tokens";
import { ensureRootBudget, ROOT_BUDGET_NAME } from "./site-root";
import { findUserByToken, signInSsoUser } from "./users";

let scratch: ScratchDatabase;
let db: Db;

beforeAll(async () => {
  scratch = await openScratchDatabase(inject("databaseUrl"), inject("isEmbeddedDatabase"));
  // The data layer's client is made on first use, from DATABASE_URL.
  process.env.DATABASE_URL = scratch.url;
  db = createPrismaClient(scratch.url, 2);
});
afterAll(async () => {
  await db.$disconnect();
  const { getDb } = await import("./db/app-db");
  await getDb().$disconnect();
  await scratch.drop();
});

const roots = () =>
  db.budgetNode.findMany({
    where: { parentId: null },
    select: { name: true, weight: true, weights: { select: { weightAfter: true } } },
  });

describe("signInSsoUser", () => {
  it("a first sign-in makes an account with no rights, and no tree for a non-admin", async () => {
    const user = await signInSsoUser("New.Person@Lab.example", "New Person", null);
    expect(user).toMatchObject({ email: "new.person@lab.example", isAdmin: false });
    expect(await db.budgetLead.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.budgetMember.count({ where: { userId: user.id } })).toBe(0);
    expect(await roots()).toEqual([]);
    // A second sign-in finds the same account and keeps its name.
    const again = await signInSsoUser("new.person@lab.example", "Renamed", null);
    expect(again).toEqual(user);
  });

  it("a person on ALLOT_ADMINS signs in as an admin, and the site gets its root once", async () => {
    const admins = ["ada@lab.example", "grace@lab.example"];
    const [ada, grace] = await Promise.all([
      signInSsoUser("Ada@Lab.example", "Ada", admins),
      signInSsoUser("grace@lab.example", "Grace", admins),
    ]);
    expect(ada?.isAdmin).toBe(true);
    expect(grace?.isAdmin).toBe(true);
    expect(await roots()).toEqual([
      { name: ROOT_BUDGET_NAME, weight: 1, weights: [{ weightAfter: 1 }] },
    ]);
    expect(await ensureRootBudget(db)).toBe(false);
  });

  it("a person not on the list is not an admin, and an admin taken off it loses admin", async () => {
    const admins = ["ada@lab.example"];
    expect((await signInSsoUser("eve@lab.example", "Eve", admins)).isAdmin).toBe(false);
    expect((await signInSsoUser("grace@lab.example", "Grace", admins)).isAdmin).toBe(false);
    expect((await signInSsoUser("ada@lab.example", "Ada", admins)).isAdmin).toBe(true);
  });

  it("with no list (ALLOT_ADMINS unset) sign-in leaves the admin flag as it is", async () => {
    await db.user.update({ where: { email: "eve@lab.example" }, data: { isAdmin: true } });
    expect((await signInSsoUser("eve@lab.example", "Eve", null)).isAdmin).toBe(true);
    expect((await signInSsoUser("new.person@lab.example", "New", null)).isAdmin).toBe(false);
  });
});

describe("ensureRootBudget", () => {
  it("makes no second root: an admin's later sign-in finds the one there", async () => {
    expect(await ensureRootBudget(db)).toBe(false);
    expect((await signInSsoUser("ada@lab.example", "Ada", ["ada@lab.example"])).isAdmin).toBe(true);
    expect(await roots()).toHaveLength(1);
  });
});

describe("applyAdminList (at the server's start)", () => {
  it("takes admin from everyone off the list, their personal tokens included, and gives it to those on it", async () => {
    const ada = (await signInSsoUser("ada@lab.example", "Ada", ["ada@lab.example"]))!;
    const { token } = await issuePersonalToken(ada.id, { name: "scripts", expiresInDays: null });
    expect((await findUserByToken(token))?.isAdmin).toBe(true);
    // Ada and Eve are admins here (the tests above); Grace is not.
    expect(await applyAdminList(db, ["grace@lab.example"])).toEqual({
      granted: ["grace@lab.example"],
      revoked: ["ada@lab.example", "eve@lab.example"],
    });
    expect((await findUserByToken(token))?.isAdmin).toBe(false);
    const admins = await db.user.findMany({ where: { isAdmin: true }, select: { email: true } });
    expect(admins).toEqual([{ email: "grace@lab.example" }]);
    expect(await applyAdminList(db, ["grace@lab.example"])).toEqual({ granted: [], revoked: [] });
  });
});
