// Issue #35's history writes: who cancelled a job and why, who changed a node's health (a
// person, the executor, the demo executor), and a cluster token's last use, kept at most once a
// minute as personal tokens' are.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import { getDb } from "./db/app-db";
import { cancelJobSchema, nodeHealthSchema } from "../validation/oversight";
import { adoptDraftSchema } from "../validation/what-if";
import { ingestEvents } from "./executor";
import { getJobView } from "./job-views";
import { cancelJob, submitJob } from "./jobs";
import { toSec } from "./db/epoch";
import { listClusterNodes } from "./nodes";
import { createClusterToken, findClusterByToken, listClusterTokens } from "./tokens";
import { removeTestCluster } from "../testing/remove-cluster";

const databaseUrl = inject("databaseUrl");
const CLUSTER = "h100";
const NODE = 126;
let riley = { id: "", isAdmin: false };
let pretrainId = "";

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const db = getDb();
  const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
  riley = { id: user.id, isAdmin: false };
  pretrainId = (await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } })).id;
});
afterAll(async () => {
  await getDb().apiToken.deleteMany({ where: { name: { startsWith: "zz-oversight" } } });
  await getDb().$disconnect();
});

const input = (name: string) => ({
  cluster: CLUSTER,
  budgetId: pretrainId,
  name,
  gpus: 8,
  minRuntimeSec: 3600,
  isResumable: true,
  priority: "normal" as const,
});

describe("cancel history", () => {
  it("keeps who cancelled a job and why, and shows it on the job", async () => {
    const jobId = await submitJob(riley, input("zz-oversight cancel"));
    await cancelJob(riley, jobId, "wrong config");
    const row = await getDb().job.findUniqueOrThrow({
      where: { id: jobId },
      select: { state: true, cancelledById: true, cancelReason: true, endedAt: true },
    });
    expect(row).toMatchObject({
      state: "cancelled",
      cancelledById: riley.id,
      cancelReason: "wrong config",
    });
    expect((await getJobView(jobId)).cancel).toEqual({
      isByPerson: true,
      byName: DEMO_USERS.researcher.name,
      atSec: toSec(row.endedAt!),
      reason: "wrong config",
    });
  });

  it("keeps a cancel without a reason as null, and an executor's cancel without a person", async () => {
    const plain = await submitJob(riley, input("zz-oversight plain"));
    await cancelJob(riley, plain);
    expect((await getJobView(plain)).cancel).toMatchObject({ isByPerson: true, reason: null });
    const viaExecutor = await submitJob(riley, input("zz-oversight scancel"));
    await ingestEvents(CLUSTER, [
      {
        id: `zz-oversight-${viaExecutor}`,
        kind: "job.cancelled",
        jobId: viaExecutor,
        message: "scancel",
      },
    ]);
    expect((await getJobView(viaExecutor)).cancel).toMatchObject({
      isByPerson: false,
      byName: null,
      reason: "scancel",
    });
  });
});

describe("node health history", () => {
  it("records the demo executor, the executor and a person as such, with a person's reason", async () => {
    const db = getDb();
    const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
    const event = (id: string, kind: "node.draining" | "node.healthy" | "node.down") => ({
      id: `zz-oversight-${id}`,
      kind,
      node: NODE,
      message: "ipmi alarm",
    });
    await ingestEvents(CLUSTER, [event("d1", "node.down")], { actor: { source: "demo_driver" } });
    await ingestEvents(CLUSTER, [event("e1", "node.healthy")]);
    await ingestEvents(CLUSTER, [event("p1", "node.draining")], {
      actor: { source: "person", userId: admin.id, reason: "firmware update" },
    });
    const rows = await db.nodeHealthChange.findMany({
      where: { cluster: { name: CLUSTER }, nodeIndex: NODE },
      orderBy: { at: "asc" },
      select: { health: true, source: true, userId: true, reason: true },
    });
    expect(rows).toEqual([
      { health: "down", source: "demo_driver", userId: null, reason: "ipmi alarm" },
      { health: "healthy", source: "executor", userId: null, reason: "ipmi alarm" },
      { health: "draining", source: "person", userId: admin.id, reason: "firmware update" },
    ]);
    const { nodes, history, drains } = await listClusterNodes(CLUSTER);
    expect(nodes.find((node) => node.index === NODE)?.lastChange).toMatchObject({
      health: "draining",
      actor: { source: "person", name: DEMO_USERS.admin.name },
      reason: "firmware update",
    });
    expect(history.filter((entry) => entry.node === NODE).map((entry) => entry.kind)).toContain(
      "health",
    );
    // The person's drain emptied at once (nothing ran there), but it is no drain "without a human".
    expect(drains.some((drain) => drain.node === NODE)).toBe(false);
    await ingestEvents(CLUSTER, [event("p2", "node.healthy")], {
      actor: { source: "person", userId: admin.id, reason: null },
    });
  });
});

describe("how long a node has been in its state", () => {
  it("dates a node with no change on record from when records began, not from its row", async () => {
    const db = getDb();
    const name = "zz-oversight-age";
    await removeTestCluster(db, name);
    const tenDaysAgo = new Date(Math.floor(Date.now() / 1000 - 10 * 86_400) * 1000);
    try {
      const cluster = await db.cluster.create({
        data: {
          name,
          gpuType: "test",
          nodes: {
            create: [
              { index: 0, gpus: 8, health: "down", healthChangedAt: tenDaysAgo },
              { index: 1, gpus: 8 },
            ],
          },
        },
        select: { id: true },
      });
      await db.nodeHealthChange.create({
        data: {
          clusterId: cluster.id,
          nodeIndex: 0,
          at: tenDaysAgo,
          health: "down",
          source: "executor",
        },
      });
      const { nodes } = await listClusterNodes(name);
      expect(
        nodes.map(({ index, healthChangedSec, isUnchangedOnRecord }) => ({
          index,
          healthChangedSec,
          isUnchangedOnRecord,
        })),
      ).toEqual([
        { index: 0, healthChangedSec: toSec(tenDaysAgo), isUnchangedOnRecord: false },
        // Registered just now, but the cluster's records begin ten days ago: healthy since then.
        { index: 1, healthChangedSec: toSec(tenDaysAgo), isUnchangedOnRecord: true },
      ]);
    } finally {
      await removeTestCluster(db, name);
    }
  });
});

describe("required reasons", () => {
  it("refuses a drain and an adoption without a reason, naming the field; a cancel needs none", () => {
    const drain = nodeHealthSchema.safeParse({ health: "draining" });
    expect(drain.success ? [] : drain.error.issues.map((issue) => issue.path.join("."))).toEqual([
      "reason",
    ]);
    const blank = nodeHealthSchema.safeParse({ health: "draining", reason: "  " });
    expect(blank.success).toBe(false);
    expect(nodeHealthSchema.safeParse({ health: "down" }).success).toBe(true);
    const adopt = adoptDraftSchema.safeParse({});
    expect(adopt.success ? [] : adopt.error.issues.map((issue) => issue.path.join("."))).toEqual([
      "reason",
    ]);
    expect(cancelJobSchema.parse({})).toEqual({ reason: undefined });
    expect(cancelJobSchema.parse({ reason: " wrong config " })).toEqual({ reason: "wrong config" });
  });
});

describe("executor token last use", () => {
  it("is written when the token authenticates, at most once a minute", async () => {
    const db = getDb();
    const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
    const { token, view } = await createClusterToken(CLUSTER, "zz-oversight bridge", admin.id);
    expect(view.lastUsedAt).toBeNull();
    const first = new Date("2030-01-01T10:00:00Z");
    expect(await findClusterByToken(token, first)).toBe(CLUSTER);
    const lastUsed = async () =>
      (await listClusterTokens(CLUSTER)).find((row) => row.id === view.id)?.lastUsedAt;
    expect(await lastUsed()).toBe(first.toISOString());
    await findClusterByToken(token, new Date(first.getTime() + 30_000));
    expect(await lastUsed()).toBe(first.toISOString());
    const later = new Date(first.getTime() + 61_000);
    await findClusterByToken(token, later);
    expect(await lastUsed()).toBe(later.toISOString());
  });
});
