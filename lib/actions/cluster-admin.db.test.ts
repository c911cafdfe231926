// The nodes page's admin actions through their error map (safeAction): a refusal is a 403
// state, bad input a 422 state naming the field, and neither throws nor writes anything.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { createPrismaClient } from "../data/db/client";
import type { SessionUser } from "../data/users";
import { DEMO_USERS } from "../demo/lab-org";
import { createToken, revokeToken, setNodeHealth } from "./cluster-admin";
import { safeAction } from "./safe-action";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const CLUSTER = "b200";
const NODE = 63;
let admin: SessionUser;
let researcher: SessionUser;

const USER = { id: true, email: true, name: true, isAdmin: true } as const;

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

async function nodeHealth(): Promise<string> {
  const node = await db.clusterNode.findFirstOrThrow({
    where: { cluster: { name: CLUSTER }, index: NODE },
    select: { health: true },
  });
  return node.health;
}

async function counts() {
  const [events, tokens] = await Promise.all([db.executorEvent.count(), db.apiToken.count()]);
  return { events, tokens, health: await nodeHealth() };
}

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  admin = await db.user.findUniqueOrThrow({
    where: { email: DEMO_USERS.admin.email },
    select: USER,
  });
  researcher = await db.user.findUniqueOrThrow({
    where: { email: DEMO_USERS.researcher.email },
    select: USER,
  });
});
afterAll(async () => {
  await db.apiToken.deleteMany({ where: { name: { startsWith: "zz-actions" } } });
  await safeAction(() =>
    setNodeHealth(admin, formOf({ cluster: CLUSTER, node: String(NODE), health: "healthy" })),
  );
  await db.$disconnect();
});

describe("node health action", () => {
  const drain = formOf({
    cluster: CLUSTER,
    node: String(NODE),
    health: "draining",
    reason: "firmware update",
  });

  it("gives a researcher a 403 state, and a missing session a 401 state, changing nothing", async () => {
    const before = await counts();
    expect(await safeAction(() => setNodeHealth(researcher, drain))).toEqual({
      ok: false,
      error: {
        status: 403,
        code: "forbidden",
        message: "Only admins manage nodes and tokens.",
        fieldErrors: {},
      },
    });
    const signedOut = await safeAction(() => setNodeHealth(null, drain));
    expect(signedOut.ok ? null : signedOut.error.status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ["node", { node: "" }, "Choose a node."],
    ["node", { node: "2147483648" }, "Use at most 2,147,483,647."],
    ["node", { node: "-1" }, "Node indices start at 0."],
    ["health", { health: "exploded" }, "Choose healthy, draining or down."],
    [
      "cluster",
      { cluster: "b2\u000000" },
      expect.stringMatching(/^Remove the control character U\+0000/),
    ],
  ])("answers bad input in %s (%j) with a 422 field error", async (field, change, message) => {
    const before = await counts();
    const form = formOf({
      cluster: CLUSTER,
      node: String(NODE),
      health: "draining",
      reason: "firmware update",
      ...change,
    });
    const result = await safeAction(() => setNodeHealth(admin, form));
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({
        status: 422,
        code: "validation_failed",
        fieldErrors: { [field]: message },
      }),
    });
    expect(await counts()).toEqual(before);
  });

  it("answers an unknown cluster and a node the cluster lacks with a 404 state", async () => {
    const unknown = formOf({ cluster: "no-such", node: "0", health: "down" });
    const result = await safeAction(() => setNodeHealth(admin, unknown));
    expect(result.ok ? null : [result.error.status, result.error.message]).toEqual([
      404,
      'No cluster is named "no-such".',
    ]);
    const missing = formOf({ cluster: CLUSTER, node: "999", health: "down" });
    const refused = await safeAction(() => setNodeHealth(admin, missing));
    expect(refused.ok ? null : [refused.error.status, refused.error.message]).toEqual([
      404,
      `The cluster ${CLUSTER} has no node 999.`,
    ]);
  });

  it("refuses a drain without a reason (422 on reason) and writes nothing", async () => {
    const before = await counts();
    for (const reason of [null, "", "   "]) {
      const fields = { cluster: CLUSTER, node: String(NODE), health: "draining" };
      const form = formOf(reason === null ? fields : { ...fields, reason });
      const result = await safeAction(() => setNodeHealth(admin, form));
      expect(result.ok ? null : [result.error.status, result.error.fieldErrors]).toEqual([
        422,
        { reason: "Say why the node is drained (kept in its history, e.g. “firmware update”)." },
      ]);
    }
    expect(await counts()).toEqual(before);
  });

  it("lets an admin drain the node, recording who, when and why in its history", async () => {
    expect(await safeAction(() => setNodeHealth(admin, drain))).toMatchObject({
      ok: true,
      data: { cluster: CLUSTER, node: NODE, health: "draining", note: null },
    });
    expect(await nodeHealth()).toBe("draining");
    const changes = await db.nodeHealthChange.findMany({
      where: { cluster: { name: CLUSTER }, nodeIndex: NODE },
      select: { health: true, source: true, userId: true, reason: true },
    });
    expect(changes).toEqual([
      { health: "draining", source: "person", userId: admin.id, reason: "firmware update" },
    ]);
  });

  it("records a health change without a reason when it is not a drain", async () => {
    const up = formOf({ cluster: CLUSTER, node: String(NODE), health: "healthy" });
    expect(await safeAction(() => setNodeHealth(admin, up))).toMatchObject({ ok: true });
    const last = await db.nodeHealthChange.findFirstOrThrow({
      where: { cluster: { name: CLUSTER }, nodeIndex: NODE },
      orderBy: { at: "desc" },
      select: { health: true, source: true, userId: true, reason: true },
    });
    expect(last).toEqual({ health: "healthy", source: "person", userId: admin.id, reason: null });
  });
});

describe("token actions", () => {
  it("refuse a researcher (403) and a bad name (422 on name) without creating a token", async () => {
    const before = await counts();
    const form = formOf({ cluster: CLUSTER, name: "zz-actions bridge" });
    const refused = await safeAction(() => createToken(researcher, form));
    expect(refused.ok ? null : refused.error.status).toBe(403);
    for (const name of ["", "zz-actions\u0000", "x".repeat(81)]) {
      const result = await safeAction(() => createToken(admin, formOf({ cluster: CLUSTER, name })));
      expect(
        result.ok ? null : [result.error.status, Object.keys(result.error.fieldErrors)],
      ).toEqual([422, ["name"]]);
    }
    expect(await counts()).toEqual(before);
  });

  it("create a token for an admin, refuse a researcher's revoke, and revoke it for the admin", async () => {
    const created = await safeAction(() =>
      createToken(admin, formOf({ cluster: CLUSTER, name: "zz-actions bridge" })),
    );
    expect(created).toMatchObject({ ok: true, data: { name: "zz-actions bridge" } });
    const row = await db.apiToken.findFirstOrThrow({ where: { name: "zz-actions bridge" } });
    const revoke = formOf({ cluster: CLUSTER, tokenId: row.id });
    const refused = await safeAction(() => revokeToken(researcher, revoke));
    expect(refused.ok ? null : refused.error.status).toBe(403);
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: row.id } })).revokedAt).toBeNull();
    const bad = await safeAction(() =>
      revokeToken(admin, formOf({ cluster: CLUSTER, tokenId: "" })),
    );
    expect(bad.ok ? null : Object.keys(bad.error.fieldErrors)).toEqual(["tokenId"]);
    // Another cluster's form does not reach this cluster's token.
    const elsewhere = await safeAction(() =>
      revokeToken(admin, formOf({ cluster: "h100", tokenId: row.id })),
    );
    expect(elsewhere.ok ? null : elsewhere.error.status).toBe(404);
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: row.id } })).revokedAt).toBeNull();
    expect(await safeAction(() => revokeToken(admin, revoke))).toEqual({
      ok: true,
      data: { cluster: CLUSTER },
    });
    expect(
      (await db.apiToken.findUniqueOrThrow({ where: { id: row.id } })).revokedAt,
    ).not.toBeNull();
  });
});
