// GET /api/v1/clusters/{name}/accounts through its route handler: the demo lab's tree as SLURM
// accounts for the cluster's own token or an admin, 403 for another cluster's token, 409 when
// two budgets would share an account.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { GET } from "../../app/api/v1/clusters/[name]/accounts/route";
import { createPrismaClient } from "../data/db/client";
import { createClusterToken } from "../data/tokens";
import { DEMO_USERS } from "../demo/lab-org";
import { createPersonalToken } from "../demo/seed-org";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const TOKEN_NAME = "zz-accounts executor";
const tokens = { b200: "", h100: "", admin: "", researcher: "" };

type Account = {
  name: string;
  parent: string;
  fairshare: number;
  isLeaf: boolean;
  path: string;
  users: string[];
};

function get(cluster: string, token: string): Promise<Response> {
  return GET(
    new Request(`http://localhost/api/v1/clusters/${cluster}/accounts`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    { params: Promise.resolve({ name: cluster }) },
  );
}

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  const researcher = await db.user.findUniqueOrThrow({
    where: { email: DEMO_USERS.researcher.email },
  });
  tokens.b200 = (await createClusterToken("b200", TOKEN_NAME, admin.id)).token;
  tokens.h100 = (await createClusterToken("h100", TOKEN_NAME, admin.id)).token;
  tokens.admin = await createPersonalToken(db, admin.id, TOKEN_NAME);
  tokens.researcher = await createPersonalToken(db, researcher.id, TOKEN_NAME);
});
afterAll(async () => {
  await db.apiToken.deleteMany({ where: { name: TOKEN_NAME } });
  await db.$disconnect();
});

describe("GET /api/v1/clusters/{name}/accounts", () => {
  it("answers the tree as accounts, parents first, leaves with their members' logins", async () => {
    const response = await get("b200", tokens.b200);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { cluster: string; accounts: Account[] };
    expect(body.cluster).toBe("b200");
    const [root, ...rest] = body.accounts;
    expect(root).toMatchObject({
      parent: "root",
      fairshare: 1,
      isLeaf: false,
      path: "",
      users: [],
    });
    const seen = new Set([root!.name]);
    for (const account of rest) {
      expect(seen.has(account.parent)).toBe(true);
      seen.add(account.name);
      expect(account.users.length > 0).toBe(account.isLeaf);
    }
    expect(body.accounts.find((a) => a.name === "language")).toMatchObject({
      parent: root!.name,
      fairshare: 40,
      path: "language",
    });
    const leaf = body.accounts.find((a) => a.name === "language.lm-eval")!;
    expect(leaf).toMatchObject({ parent: "language", isLeaf: true, path: "language/lm-eval" });
    expect(leaf.users).toEqual([...leaf.users].sort());
    expect(leaf.users.every((login) => /^[a-z0-9._-]+$/.test(login))).toBe(true);
  });

  it("lets an admin read it, and refuses other clusters' tokens and non-admins", async () => {
    expect((await get("b200", tokens.admin)).status).toBe(200);
    const other = await get("b200", tokens.h100);
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({
      error: { message: 'This token belongs to cluster "h100".' },
    });
    expect((await get("b200", tokens.researcher)).status).toBe(403);
    expect((await get("b200", "allot_c_unknown")).status).toBe(401);
    expect((await get("nosuch", tokens.admin)).status).toBe(404);
  });

  it("answers 409 naming both budgets when two would share an account", async () => {
    const climate = await db.budgetNode.findFirstOrThrow({
      where: { name: "climate", removedAt: null },
    });
    const twin = await db.budgetNode.create({
      data: { parentId: climate.parentId, name: "Climate", weight: 1 },
    });
    try {
      const response = await get("b200", tokens.b200);
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({
        error: {
          code: "conflict",
          message:
            'Budgets "science/climate" and "science/Climate" would share the SLURM account "science.climate": rename one of them.',
        },
      });
    } finally {
      await db.budgetNode.delete({ where: { id: twin.id } });
    }
  });
});
