// An admin names a node by Allot's index or by the executor's name for it (SLURM's NodeName).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import { expectAppError } from "../testing/expect-app-error";
import { removeTestCluster } from "../testing/remove-cluster";
import { createPrismaClient } from "./db/client";
import { listNodeHealth } from "../demo/executor/reads";
import { ingestEvents } from "./executor";
import { parseNodeRef } from "../validation/oversight";
import { setNodeHealthFor } from "./node-health";
import type { SessionUser } from "./users";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const CLUSTER = "zz-node-names";
const NUMBERED = "zz-node-numbers";
let admin: SessionUser;

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  admin = await db.user.findUniqueOrThrow({
    where: { email: DEMO_USERS.admin.email },
    select: { id: true, email: true, name: true, isAdmin: true },
  });
  await db.cluster.create({
    data: {
      name: CLUSTER,
      gpuType: "test",
      executor: "slurm",
      nodes: {
        create: [
          { index: 0, gpus: 8, hostname: "gpu03" },
          { index: 1, gpus: 8, hostname: "gpu04" },
        ],
      },
    },
  });
  // SLURM may name nodes by numbers that are not their index in Allot.
  await db.cluster.create({
    data: {
      name: NUMBERED,
      gpuType: "test",
      executor: "slurm",
      nodes: {
        create: [
          { index: 0, gpus: 8, hostname: "7" },
          { index: 1, gpus: 8, hostname: "0" },
          { index: 2, gpus: 8, hostname: "gpu2" },
        ],
      },
    },
  });
});
afterAll(async () => {
  await removeTestCluster(db, CLUSTER);
  await removeTestCluster(db, NUMBERED);
  await db.$disconnect();
});

const healthOf = async (index: number) =>
  (await db.clusterNode.findFirstOrThrow({ where: { cluster: { name: CLUSTER }, index } })).health;

describe("setNodeHealthFor", () => {
  it("finds a node by its executor's name as well as by its index", async () => {
    const drained = await setNodeHealthFor(admin, CLUSTER, parseNodeRef("gpu04"), {
      health: "draining",
      reason: "fan failure",
    });
    expect(drained).toMatchObject({ cluster: CLUSTER, node: 1, health: "draining" });
    expect(await healthOf(1)).toBe("draining");
    await setNodeHealthFor(admin, CLUSTER, 1, { health: "healthy", reason: undefined });
    expect(await healthOf(1)).toBe("healthy");
  });

  it("reads a number as the node's name first, then as its index", async () => {
    const healthIn = async (index: number) =>
      (await db.clusterNode.findFirstOrThrow({ where: { cluster: { name: NUMBERED }, index } }))
        .health;
    const down = { health: "down", reason: "test" } as const;
    expect(await setNodeHealthFor(admin, NUMBERED, parseNodeRef("0"), down)).toMatchObject({
      node: 1,
    });
    expect(await healthIn(1)).toBe("down");
    expect(await healthIn(0)).toBe("healthy");
    expect(await setNodeHealthFor(admin, NUMBERED, parseNodeRef("7"), down)).toMatchObject({
      node: 0,
    });
    // No node is named "2": node 2 by its index.
    expect(await setNodeHealthFor(admin, NUMBERED, parseNodeRef("2"), down)).toMatchObject({
      node: 2,
    });
  });

  it("says which node or cluster it does not know (404)", async () => {
    const byName = await expectAppError(
      setNodeHealthFor(admin, CLUSTER, parseNodeRef("gpu99"), {
        health: "healthy",
        reason: undefined,
      }),
      "not_found",
    );
    expect(byName.message).toBe(`The cluster ${CLUSTER} has no node named "gpu99".`);
    const byIndex = await expectAppError(
      setNodeHealthFor(admin, CLUSTER, 7, { health: "healthy", reason: undefined }),
      "not_found",
    );
    expect(byIndex.message).toBe(`The cluster ${CLUSTER} has no node 7.`);
    const byEither = await expectAppError(
      setNodeHealthFor(admin, CLUSTER, parseNodeRef("9"), { health: "healthy", reason: undefined }),
      "not_found",
    );
    expect(byEither.message).toBe(`The cluster ${CLUSTER} has no node 9.`);
    await expectAppError(
      setNodeHealthFor(admin, "zz-nowhere", 0, { health: "healthy", reason: undefined }),
      "not_found",
    );
  });

  it("takes over a node its executor drained, so the demo executor leaves it to people", async () => {
    await ingestEvents(CLUSTER, [{ id: "zz-exec-drain-0", kind: "node.draining", node: 0 }]);
    const setByPerson = async () =>
      (await listNodeHealth(CLUSTER)).find((node) => node.index === 0)!.isSetByPerson;
    expect(await setByPerson()).toBe(false);

    const drained = await setNodeHealthFor(admin, CLUSTER, 0, {
      health: "draining",
      reason: "memory errors",
    });
    expect(drained.note).toBe(
      "Node 0 was already draining (set by its executor); it is now recorded as set by you.",
    );
    expect(await setByPerson()).toBe(true);
    const last = await db.nodeHealthChange.findFirstOrThrow({
      where: { cluster: { name: CLUSTER }, nodeIndex: 0 },
      orderBy: [{ at: "desc" }, { id: "desc" }],
    });
    expect(last).toMatchObject({ health: "draining", source: "person", userId: admin.id });
    expect(last.reason).toBe("memory errors");

    // Set again by a person: nothing more to record.
    const again = await setNodeHealthFor(admin, CLUSTER, 0, { health: "draining", reason: "x" });
    expect(again.note).toBe("Node 0 is already draining.");
    expect(
      await db.nodeHealthChange.count({ where: { cluster: { name: CLUSTER }, nodeIndex: 0 } }),
    ).toBe(2);
    await setNodeHealthFor(admin, CLUSTER, 0, { health: "healthy", reason: undefined });
  });
});
