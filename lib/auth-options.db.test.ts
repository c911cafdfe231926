// The demo provider signs in the four seeded demo users and nobody else, and exists in demo
// mode only (docs/decisions/080-csrf-and-demo-mode.md).
import type { NextAuthOptions } from "next-auth";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { authOptions, authorizeDemoUser } from "./auth-options";
import { createPrismaClient } from "./data/db/client";
import { DEMO_DOMAIN, DEMO_USERS } from "./demo/lab-org";
import { upsertUsers } from "./demo/seed-org";
import { captureLogs } from "./testing/log-capture";

const db = createPrismaClient(inject("databaseUrl"), 2);
let userIds: Map<string, string>;

beforeAll(async () => {
  userIds = await upsertUsers(db, [
    { ...DEMO_USERS.admin, isAdmin: true, isDemo: true },
    { ...DEMO_USERS.researcher, isAdmin: false, isDemo: true },
    { email: "zz-auth-admin@lab.example", name: "Real Admin", isAdmin: true, isDemo: false },
    // A lab member on the demo domain who is not one of the four demo users.
    { email: `zz-auth-member@${DEMO_DOMAIN}`, name: "Lab Member", isAdmin: false, isDemo: false },
  ]);
});
afterAll(async () => {
  await db.$disconnect();
});

describe("authorizeDemoUser", () => {
  it("accepts a demo user by seeded email, the demo admin included", async () => {
    expect(await authorizeDemoUser({ email: DEMO_USERS.researcher.email })).toEqual({
      id: userIds.get(DEMO_USERS.researcher.email),
      email: DEMO_USERS.researcher.email,
      name: DEMO_USERS.researcher.name,
    });
    expect((await authorizeDemoUser({ email: DEMO_USERS.admin.email }))?.id).toBe(
      userIds.get(DEMO_USERS.admin.email),
    );
  });

  it("reads the email case- and space-insensitively", async () => {
    const user = await authorizeDemoUser({
      email: `  ${DEMO_USERS.researcher.email.toUpperCase()} `,
    });
    expect(user?.id).toBe(userIds.get(DEMO_USERS.researcher.email));
  });

  it("refuses an existing admin who is not a demo user", async () => {
    expect(userIds.get("zz-auth-admin@lab.example")).toBeDefined();
    expect(await authorizeDemoUser({ email: "zz-auth-admin@lab.example" })).toBeNull();
  });

  it("refuses an existing account on the demo domain that is not one of the four", async () => {
    expect(userIds.get(`zz-auth-member@${DEMO_DOMAIN}`)).toBeDefined();
    expect(await authorizeDemoUser({ email: `zz-auth-member@${DEMO_DOMAIN}` })).toBeNull();
  });

  it("refuses a missing or empty email and an unknown one", async () => {
    expect(await authorizeDemoUser(undefined)).toBeNull();
    expect(await authorizeDemoUser({ email: "  " })).toBeNull();
    expect(await authorizeDemoUser({ email: "nobody@lab.example" })).toBeNull();
  });
});

// next-auth merges a provider's `options` over its defaults (id "credentials", an authorize that
// returns null): read them the way it does.
type MergedProvider = {
  id: string;
  options?: { id?: string; authorize?: (credentials: { email?: string }) => Promise<unknown> };
};
function providersOf(env: Record<string, string>): MergedProvider[] {
  return authOptions(env).providers as MergedProvider[];
}

describe("authOptions", () => {
  it("has the demo provider in demo mode only", () => {
    const ids = (env: Record<string, string>) =>
      providersOf(env).map((provider) => provider.options?.id ?? provider.id);
    expect(ids({ ALLOT_DEMO: "1" })).toEqual(["demo"]);
    expect(ids({})).toEqual([]);
    expect(ids({ NODE_ENV: "development" })).toEqual([]);
    expect(ids({ ALLOT_DEMO: "0", NODE_ENV: "development" })).toEqual([]);
  });

  it("wires the demo provider to the check: the admin is refused, a demo user signed in", async () => {
    const authorize = providersOf({ ALLOT_DEMO: "1" })[0]?.options?.authorize;
    expect(authorize).toBeDefined();
    expect(await authorize?.({ email: "zz-auth-admin@lab.example" })).toBeNull();
    expect(await authorize?.({ email: DEMO_USERS.researcher.email })).toMatchObject({
      id: userIds.get(DEMO_USERS.researcher.email),
    });
  });
});

type SignInParams = Parameters<NonNullable<NextAuthOptions["callbacks"]>["signIn"] & object>[0];

describe("the OIDC sign-in callback", () => {
  const signIn = (env: Record<string, string>, email: string | null, emailVerified?: boolean) =>
    authOptions(env).callbacks!.signIn!({
      user: { id: "sub-1", email, name: "Zz Sso" },
      account: { provider: "oidc", type: "oauth", providerAccountId: "sub-1" },
      profile: { sub: "sub-1", email: email ?? undefined, email_verified: emailVerified },
    } as SignInParams);
  const account = (email: string) =>
    db.user.findUnique({ where: { email }, select: { isAdmin: true, isDemo: true } });

  it("sends a sign-in without an email to the error page", async () => {
    expect(await signIn({}, null)).toBe("/signin/error?error=NoEmail");
  });

  it("refuses an email the provider says is unverified, and makes no account", async () => {
    expect(await signIn({}, "zz-sso-unverified@lab.example", false)).toBe(
      "/signin/error?error=EmailNotVerified",
    );
    expect(await account("zz-sso-unverified@lab.example")).toBeNull();
  });

  it("makes an account with no rights for a verified (or unstated) email not on ALLOT_ADMINS", async () => {
    const env = { ALLOT_ADMINS: "someone-else@lab.example" };
    const logs = captureLogs();
    try {
      expect(await signIn(env, "Zz-Sso-New@lab.example", true)).toBe(true);
      const created = await db.user.findUniqueOrThrow({
        where: { email: "zz-sso-new@lab.example" },
      });
      // An operator's log says who signed in, by id (no email in the log).
      expect(logs.entries().filter((line) => line.msg === "signed in")).toEqual([
        expect.objectContaining({ level: "info", userId: created.id, isAdmin: false }),
      ]);
    } finally {
      logs.stop();
    }
    expect(await account("zz-sso-new@lab.example")).toEqual({ isAdmin: false, isDemo: false });
    expect(await signIn({}, "zz-sso-unstated@lab.example")).toBe(true);
    expect(await account("zz-sso-unstated@lab.example")).toEqual({ isAdmin: false, isDemo: false });
  });
});
