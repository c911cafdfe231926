// The demo executor keeps a cluster's demo going when a lead removes a budget it submits to, and
// logs its rounds as structured lines (docs/operations.md).
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { seedDemoLab } from "../../../prisma/seed";
import { setChildren } from "../../data/budget-edits";
import { changePerson } from "../../data/budget-people";
import { getChildrenState } from "../../data/budget-state";
import { createPrismaClient } from "../../data/db/client";
import { getNow } from "../../data/db/clock";
import { ingestEvents } from "../../data/executor";
import { submitJob } from "../../data/jobs";
import { createLogger } from "../../log/logger";
import { createTestBranch, type TestBranch } from "../../testing/budget-branch";
import { removeTestCluster } from "../../testing/remove-cluster";
import { driveRound, submitArrivals, type ClusterDriver } from "./executor";
import type { Arrival } from "./arrivals";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
let branch: TestBranch;

type Line = Record<string, unknown> & { msg: string };

/** A logger whose lines land in the returned array, parsed. */
function captureLog() {
  const lines: Line[] = [];
  const log = createLogger(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) {
          lines.push(JSON.parse(line) as Line);
        }
        done();
      },
    }),
    "info",
  );
  return { lines, log };
}

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, "zz-driver");
});
afterAll(async () => {
  // The submitted jobs may have started on b300: their runs end with them, or a later file's
  // tick there would requeue a job of the removed branch.
  await db.run.updateMany({
    where: { job: { name: "driver test" }, endedAt: null },
    data: { endedAt: new Date(), endReason: "cancelled" },
  });
  await db.job.updateMany({
    where: { name: "driver test", state: { in: ["pending", "running"] } },
    data: { state: "cancelled", endedAt: new Date() },
  });
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith("zz-driver")),
  });
  await db.$disconnect();
});

describe("submitArrivals", () => {
  it("drops the arrivals of a removed budget for good and submits the others", async () => {
    const { pi, researcher } = branch.users;
    const aliceId = branch.ids["zz-driver/proj/alice"]!;
    const bobId = branch.ids["zz-driver/proj/bob"]!;
    await changePerson(pi, bobId, "members", researcher, true);
    const arrival = (budgetId: string, offsetSec: number): Arrival => ({
      offsetSec,
      userId: researcher.id,
      input: {
        cluster: "b300",
        budgetId,
        name: "driver test",
        gpus: 1,
        minRuntimeSec: 600,
        isResumable: true,
        priority: "normal",
      },
    });
    const arrivals = [arrival(aliceId, 1), arrival(bobId, 2), arrival(aliceId, 3)];
    const driver: ClusterDriver = {
      cluster: { name: "b300", gpuType: "B300", nodes: 11, gpusPerNode: 8 },
      arrivals,
      lastSec: null,
    };
    const projId = branch.ids["zz-driver/proj"]!;
    const proj = await getChildrenState(db, projId);
    await setChildren(pi, projId, {
      version: proj.version,
      reason: "bob leaves",
      children: proj.children.filter((child) => child.id !== bobId),
    });

    const { lines, log } = captureLog();
    await submitArrivals(driver, arrivals, { log });
    expect(driver.arrivals.map((a) => a.offsetSec)).toEqual([1, 3]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "demo executor: stops submitting to budgets that refused its jobs",
        cluster: "b300",
        budgets: 1,
        reason: expect.any(String),
      }),
    ]);
    const queued = await db.job.findMany({
      where: { name: "driver test" },
      select: { budgetId: true },
    });
    expect(queued.map((job) => job.budgetId)).toEqual([aliceId, aliceId]);
  });
});

describe("driveRound", () => {
  it("logs a round whose tick completed a drain as a structured line with its cluster", async () => {
    const name = "zz-driver-log";
    await removeTestCluster(db, name);
    try {
      const cluster = await db.cluster.create({
        data: {
          name,
          gpuType: "test",
          nodes: { create: [0, 1].map((index) => ({ index, gpus: 8, health: "healthy" })) },
        },
        select: { id: true },
      });
      // A job of one second of work on one node; its start acknowledged, the other node draining
      // (empty, the drain not yet seen by a tick). The round reports it finished: a tick.
      await submitJob(branch.users.researcher, {
        cluster: name,
        budgetId: branch.ids["zz-driver/proj/alice"]!,
        name: "driver log test",
        gpus: 8,
        minRuntimeSec: 600,
        isResumable: true,
        priority: "normal",
        workSec: 1,
      });
      const run = await db.run.findFirstOrThrow({
        where: { clusterId: cluster.id },
        select: { id: true, placement: true },
      });
      const busyNode = (run.placement as { node: number }[])[0]!.node;
      await ingestEvents(name, [{ id: "zz-driver-log-ack", kind: "job.started", runId: run.id }]);
      await ingestEvents(
        name,
        [{ id: "zz-driver-log-drain", kind: "node.draining", node: 1 - busyNode }],
        { isTickSkipped: true },
      );
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const { lines, log } = captureLog();
      // No random node drain or failure this round (nodeEvents rolls Math.random).
      vi.spyOn(Math, "random").mockReturnValue(0.99);
      const driver: ClusterDriver = {
        cluster: { name, gpuType: "test", nodes: 2, gpusPerNode: 8 },
        arrivals: [],
        lastSec: null,
      };
      await driveRound(driver, { log });
      expect(lines.filter((line) => line.msg === "demo executor: round")).toEqual([
        expect.objectContaining({
          level: "info",
          cluster: name,
          started: 0,
          preempted: 0,
          drainsCompleted: 1,
          tickMs: expect.any(Number),
        }),
      ]);
    } finally {
      vi.restoreAllMocks();
      await removeTestCluster(db, name);
    }
  });

  it("brings back a node it drained itself after an hour drained, never one an admin drained", async () => {
    const name = "zz-driver-drains";
    await removeTestCluster(db, name);
    try {
      await db.cluster.create({
        data: {
          name,
          gpuType: "test",
          nodes: { create: [0, 1].map((index) => ({ index, gpus: 8, health: "healthy" })) },
        },
      });
      const drain = (node: number) => ({
        id: `zz-drain-${node}`,
        kind: "node.draining" as const,
        node,
      });
      await ingestEvents(name, [drain(0)], {
        actor: { source: "person", userId: branch.users.admin.id, reason: "fan replacement" },
      });
      await ingestEvents(name, [drain(1)], { actor: { source: "demo_driver" } });
      // Both empty and drained two hours ago.
      const twoHoursAgo = new Date((await getNow(db)).getTime() - 2 * 3600_000);
      await db.clusterNode.updateMany({
        where: { cluster: { name } },
        data: { drainedAt: twoHoursAgo, healthChangedAt: twoHoursAgo },
      });
      vi.spyOn(Math, "random").mockReturnValue(0.99);
      const driver: ClusterDriver = {
        cluster: { name, gpuType: "test", nodes: 2, gpusPerNode: 8 },
        arrivals: [],
        lastSec: null,
      };
      await driveRound(driver, { log: captureLog().log });
      const nodes = await db.clusterNode.findMany({
        where: { cluster: { name } },
        orderBy: { index: "asc" },
        select: { health: true },
      });
      expect(nodes.map((node) => node.health)).toEqual(["draining", "healthy"]);
    } finally {
      vi.restoreAllMocks();
      await removeTestCluster(db, name);
    }
  });
});
