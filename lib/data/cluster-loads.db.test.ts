import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import { getDb } from "./db/app-db";
import { listClusterLoads } from "./queue";

const databaseUrl = inject("databaseUrl");
const CLUSTER = "zz-split";

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const db = getDb();
  const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
  const leaf = await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } });
  // Four nodes of 8: healthy, healthy, draining, down; the draining and down ones hold runs.
  const cluster = await db.cluster.create({
    data: {
      name: CLUSTER,
      gpuType: "test",
      nodes: {
        create: [
          { index: 0, gpus: 8, health: "healthy" },
          { index: 1, gpus: 8, health: "healthy" },
          { index: 2, gpus: 8, health: "draining" },
          { index: 3, gpus: 8, health: "down" },
        ],
      },
    },
  });
  const at = new Date("2026-11-03T14:05:00Z");
  const runs = [
    // Allocated, across a healthy and the draining node: 8 there, 4 here.
    {
      gpus: 12,
      placement: [
        { node: 0, gpus: 8 },
        { node: 2, gpus: 4 },
      ],
      isAllocated: true,
    },
    { gpus: 2, placement: [{ node: 1, gpus: 2 }], isAllocated: false },
    { gpus: 3, placement: [{ node: 3, gpus: 3 }], isAllocated: true },
    // An ended run takes no GPU.
    { gpus: 6, placement: [{ node: 1, gpus: 6 }], isAllocated: true, endedAt: at },
  ];
  for (const run of runs) {
    const job = await db.job.create({
      data: {
        clusterId: cluster.id,
        budgetId: leaf.id,
        userId: user.id,
        name: "split test",
        gpus: run.gpus,
        minRuntimeSec: run.isAllocated ? 3600 : 0,
        isResumable: true,
        state: run.endedAt ? "completed" : "running",
      },
    });
    await db.run.create({
      data: {
        jobId: job.id,
        clusterId: cluster.id,
        budgetId: leaf.id,
        gpus: run.gpus,
        placement: run.placement,
        isAllocated: run.isAllocated,
        startedAt: at,
        protectedUntil: at,
        endedAt: run.endedAt ?? null,
      },
    });
  }
});
afterAll(async () => {
  await getDb().$disconnect();
});

describe("listClusterLoads", () => {
  it("splits a cluster with draining and down nodes holding runs into parts that add up", async () => {
    const load = (await listClusterLoads()).find((row) => row.name === CLUSTER);
    expect(load).toMatchObject({
      nodes: 4,
      gpus: 32,
      totalGpus: 32,
      allocatedGpus: 8,
      unallocatedGpus: 2,
      idleGpus: 6,
      drainingGpus: 8,
      drainingBusyGpus: 4,
      downGpus: 8,
      busyGpus: 17,
      drainingNodes: 1,
      downNodes: 1,
    });
  });

  it("adds up on every cluster of the demo lab", async () => {
    for (const load of await listClusterLoads()) {
      const parts =
        load.allocatedGpus +
        load.unallocatedGpus +
        load.idleGpus +
        load.drainingGpus +
        load.downGpus;
      expect(parts, load.name).toBe(load.gpus);
    }
  });
});
