import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../../prisma/seed";
import { openScratchDatabase, type ScratchDatabase } from "../../testing/scratch-database";
import { createPrismaClient, type Db } from "../db/client";
import { rebuildRollups } from "./rollups";
import { runTick } from "./tick";

const databaseUrl = inject("databaseUrl");
const isEmbedded = inject("isEmbeddedDatabase");
let scratch: ScratchDatabase;
let db: Db;
const H = 3600;
let clusterId = "";
let pretrainId = "";
let videoId = "";
let userId = "";

beforeAll(async () => {
  // A database of its own: its cluster and roll-ups stay out of other files' way.
  scratch = await openScratchDatabase(databaseUrl, isEmbedded);
  db = createPrismaClient(scratch.url, 2);
  await seedDemoLab(scratch.url, { withHistory: false });
  // A small cluster of 4 nodes x 8 GPUs.
  const cluster = await db.cluster.create({ data: { name: "rollup-ticks", gpuType: "H100" } });
  clusterId = cluster.id;
  await db.clusterNode.createMany({
    data: [0, 1, 2, 3].map((index) => ({ clusterId, index, gpus: 8 })),
  });
  pretrainId = (await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } })).id;
  videoId = (await db.budgetNode.findFirstOrThrow({ where: { name: "video-gen" } })).id;
  userId = (await db.user.findFirstOrThrow({ where: { isDemo: true } })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await scratch.drop();
});

const at = (sec: number) => new Date(sec * 1000);

async function submit(
  name: string,
  budgetId: string,
  gpus: number,
  minRuntimeSec: number,
  sec: number,
) {
  const job = await db.job.create({
    data: {
      clusterId,
      budgetId,
      userId,
      name,
      gpus,
      minRuntimeSec,
      isResumable: true,
      submittedAt: at(sec),
      workSec: 20 * H,
      remainingWorkSec: 20 * H,
    },
  });
  return job.id;
}

/** What an executor's report does to a run and its job (lib/data/executor.ts), at `sec`. */
async function endJob(jobId: string, state: "completed" | "cancelled", sec: number) {
  await db.run.updateMany({
    where: { jobId, endedAt: null },
    data: { endedAt: at(sec), endReason: state },
  });
  await db.job.update({ where: { id: jobId }, data: { state, endedAt: at(sec) } });
}

async function setHealth(index: number, health: "healthy" | "draining" | "down", sec: number) {
  await db.clusterNode.update({
    where: { clusterId_index: { clusterId, index } },
    data: { health, healthChangedAt: at(sec), drainedAt: null },
  });
  await db.nodeHealthChange.create({ data: { clusterId, nodeIndex: index, at: at(sec), health } });
}

const snapshot = () =>
  db.usageHourly.findMany({
    where: { clusterId },
    orderBy: [{ hourStart: "asc" }, { budgetId: "asc" }],
  });

describe("roll-ups kept by the tick", () => {
  it("equal a full rebuild after starts, finishes, preemptions and node changes over hours", async () => {
    // Six hours ending two hours ago (the weights are in force from the seed's start).
    const t0 = Math.floor(Date.now() / 1000 / H) * H - 8 * H + 600;
    const tick = (sec: number) => runTick("rollup-ticks", { db, now: at(sec) });

    const a = await submit("a", pretrainId, 16, H, t0);
    const free = await submit("free", videoId, 16, 0, t0);
    expect(await tick(t0)).toMatchObject({ starts: 2 });
    // An allocated job takes the unallocated run's GPUs.
    const b = await submit("b", pretrainId, 16, H, t0 + 1800);
    expect(await tick(t0 + 1800)).toMatchObject({ starts: 1, preemptions: 1 });
    await endJob(a, "completed", t0 + 5000);
    expect(await tick(t0 + 5000)).toMatchObject({ starts: 1 });
    await setHealth(3, "draining", t0 + 2 * H + 100);
    await tick(t0 + 2 * H + 100);
    await setHealth(3, "healthy", t0 + 3 * H);
    await setHealth(2, "down", t0 + 3 * H);
    await tick(t0 + 3 * H);
    await endJob(b, "cancelled", t0 + 4 * H + 1);
    await tick(t0 + 4 * H + 1);
    await tick(t0 + 5 * H + 1234.567);
    const lastSec = t0 - 600 + 6 * H;
    await tick(lastSec);

    const incremental = await snapshot();
    const hours = new Set(incremental.map((row) => row.hourStart.getTime()));
    expect(hours.size).toBe(6);
    expect(incremental.some((row) => row.preemptions > 0)).toBe(true);
    expect(incremental.some((row) => row.unallocatedGpuSec > 0)).toBe(true);
    // Hour 0 from 00:10: a and free from 00:10 (16 GPUs each), b from 00:40.
    const first = incremental.filter((row) => row.hourStart.getTime() === (t0 - 600) * 1000);
    const pretrainFirst = first.find((row) => row.budgetId === pretrainId)!;
    expect(pretrainFirst.allocatedGpuSec).toBe(16 * 3000 + 16 * 1200);
    expect(pretrainFirst.demandGpuSec).toBe(16 * 3000 + 16 * 1200);
    expect(pretrainFirst.healthyCapacityGpuSec).toBe(32 * H);
    // Node 3 drains from 02:11:40 and empties at once (the tick preempts the free job's run
    // there): out of service until it is healthy at 03:10 (ADR 099). Node 2 is down from 03:10.
    const capacityAt = (hour: number) =>
      incremental.find((row) => row.hourStart.getTime() === (t0 - 600 + hour * H) * 1000)
        ?.healthyCapacityGpuSec;
    expect(capacityAt(2)).toBe(32 * H - 8 * (H - 700));
    // Hour 3: nodes 0 and 1, node 3 from 03:10, node 2 until 03:10.
    expect(capacityAt(3)).toBe(16 * H + 8 * 3000 + 8 * 600);
    // The job preempted and restarted keeps the moment of its first start.
    const restarted = await db.job.findUniqueOrThrow({ where: { id: free } });
    expect(restarted.firstStartedAt).toEqual(at(t0));

    const rebuilt = await rebuildRollups(db, { fromSec: t0, toSec: lastSec });
    expect(rebuilt.toSec).toBe(lastSec);
    expect(await snapshot()).toEqual(incremental);
  });
});
