import { spawnSync } from "node:child_process";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../../prisma/seed";
import { gzipText } from "../gzip";
import type { SimulationSummary } from "../summary";
import { createPrismaClient } from "../../data/db/client";
import {
  claimNextSimulation,
  claimSimulation,
  completeSimulation,
  storeSimulationTimeline,
  countRunningSimulations,
  countWaitingOf,
  failSimulation,
  insertWithinQuota,
  insertSimulation,
  loadTreeForScenario,
  recordProgress,
} from "./simulation-store";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
let userId = "";

const TINY_SCENARIO = {
  clusters: [{ name: "c1", gpuType: "H100", nodes: 1, gpusPerNode: 4 }],
  tree: {
    name: "lab",
    children: [
      { name: "a", weight: 3 },
      { name: "b", weight: 1 },
    ],
  },
  jobs: [
    { id: "j1", budget: "a", cluster: "c1", submit: 0, gpus: 2, work: "1h", minRuntime: "30m" },
    { id: "j2", budget: "b", cluster: "c1", submit: 60, gpus: 4, work: "2h", minRuntime: "1h" },
    { id: "j3", budget: "a", cluster: "c1", submit: "10m", gpus: 1, work: "5m", minRuntime: 0 },
  ],
};

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const user = await db.user.findFirstOrThrow({ where: { isAdmin: true }, select: { id: true } });
  userId = user.id;
});
afterAll(async () => {
  await db.simulation.deleteMany({});
  await db.user.deleteMany({ where: { email: { startsWith: "zz-quota-" } } });
  await db.$disconnect();
});

describe("simulation lifecycle", () => {
  it("goes queued -> running -> done, and a claimed simulation cannot be claimed again", async () => {
    const id = await insertSimulation(db, { userId, name: "t", source: "lab", options: {} });
    const queued = await db.simulation.findUniqueOrThrow({ where: { id } });
    expect([queued.status, queued.progress]).toEqual(["queued", 0]);

    const inputs = await claimSimulation(db, id);
    expect(inputs).toMatchObject({ id, source: "lab", options: {}, scenarioGz: null });
    expect(await claimSimulation(db, id)).toBeNull();
    expect(await countRunningSimulations(db)).toBe(1);

    await recordProgress(db, id, 0.4, "baseline 40%");
    await recordProgress(db, id, 7, "clamped");
    const running = await db.simulation.findUniqueOrThrow({ where: { id } });
    expect([running.status, running.progress, running.phase]).toEqual(["running", 1, "clamped"]);

    await storeSimulationTimeline(db, id, gzipText('{"early":1}'));
    await completeSimulation(db, id, {
      summary: { jobCount: 3 },
      reportGz: gzipText('{"baseline":{}}'),
    });
    const done = await db.simulation.findUniqueOrThrow({ where: { id } });
    expect([done.status, done.progress, done.phase, done.summaryJson]).toEqual([
      "done",
      1,
      null,
      { jobCount: 3 },
    ]);
    expect(gunzipSync(done.reportGz!).toString()).toBe('{"baseline":{}}');
    expect(gunzipSync(done.timelineGz!).toString()).toBe('{"early":1}'); // kept
    expect(done.finishedAt).not.toBeNull();
    await recordProgress(db, id, 0.2, "late");
    expect((await db.simulation.findUniqueOrThrow({ where: { id } })).progress).toBe(1);
  });

  it("claims the oldest queued simulation first and records a failure with its message", async () => {
    const first = await insertSimulation(db, { userId, name: "1", source: "lab", options: {} });
    const second = await insertSimulation(db, { userId, name: "2", source: "lab", options: {} });
    expect((await claimNextSimulation(db))?.id).toBe(first);
    expect((await claimNextSimulation(db))?.id).toBe(second);
    expect(await claimNextSimulation(db)).toBeNull();
    await failSimulation(db, first, "boom");
    const failed = await db.simulation.findUniqueOrThrow({ where: { id: first } });
    expect([failed.status, failed.error]).toEqual(["failed", "boom"]);
    await failSimulation(db, second, "cleanup");
  });

  it("loads the stored tree (without removed nodes) and clusters for a generated workload", async () => {
    const { nodes, clusters } = await loadTreeForScenario(db);
    expect(clusters.map((cluster) => [cluster.name, cluster.gpus])).toEqual(
      expect.arrayContaining([
        ["b200", 512],
        ["b300", 88],
        ["h100", 1024],
      ]),
    );
    const leafShare = nodes.filter((n) => n.isLeaf).reduce((sum, n) => sum + n.effectiveShare, 0);
    expect(leafShare).toBeCloseTo(1, 12);
  });

  it("runs an uploaded scenario in the worker process to a report, summary and timeline", async () => {
    const id = await insertSimulation(db, {
      userId,
      name: "tiny",
      source: "upload",
      options: { lookback: "1d" },
      scenarioGz: gzipText(JSON.stringify(TINY_SCENARIO)),
    });
    const worker = spawnSync(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "lib", "simulations", "worker", "sim-worker.ts"), id],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" },
    );
    expect(worker.stderr).toBe("");
    expect(worker.status).toBe(0);
    const row = await db.simulation.findUniqueOrThrow({ where: { id } });
    expect([row.status, row.progress, row.error]).toEqual(["done", 1, null]);
    const summary = row.summaryJson as SimulationSummary;
    expect(summary.jobCount).toBe(3);
    expect(summary.lookbackSec).toBe(86_400);
    expect(Object.keys(summary.schedulers)).toEqual(["baseline", "allocation"]);
    expect(summary.schedulers.allocation?.jobCount).toBe(3);
    const report = JSON.parse(gunzipSync(row.reportGz!).toString()) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(["baseline", "allocation"]);
    const timeline = JSON.parse(gunzipSync(row.timelineGz!).toString()) as Record<
      string,
      { segments: number[]; jobs: string[] }
    >;
    expect(timeline.allocation?.jobs.sort()).toEqual(["j1", "j2", "j3"]);
  });
});

describe("a person's queued and running simulations", () => {
  const STALE_AFTER_MS = 15 * 60_000;
  const newPerson = async (email: string) =>
    (await db.user.create({ data: { email, name: email }, select: { id: true } })).id;

  it("counts every queued one and the running ones whose worker still writes", async () => {
    const personId = await newPerson("zz-quota-count@lab.example");
    const nowMs = Date.now();
    const insert = (status: "queued" | "running" | "done", ageMs: number) =>
      db.simulation.create({
        data: {
          userId: personId,
          name: `quota ${status} ${ageMs}`,
          source: "lab",
          options: {},
          status,
          createdAt: new Date(nowMs - ageMs),
          updatedAt: new Date(nowMs - ageMs),
        },
      });
    const count = () => countWaitingOf(db, personId, nowMs, STALE_AFTER_MS);
    expect(await count()).toBe(0);
    await insert("queued", 60_000);
    await insert("queued", 2 * 86_400_000); // a worker still takes it, oldest first
    await insert("running", 60_000);
    expect(await count()).toBe(3);
    // Not waiting: done, and running with a worker that went quiet (shown as failed).
    await insert("done", 60_000);
    await insert("running", STALE_AFTER_MS + 60_000);
    expect(await count()).toBe(3);
  });

  it("lets exactly the quota in when requests arrive at once", async () => {
    const personId = await newPerson("zz-quota-race@lab.example");
    const wide = createPrismaClient(databaseUrl, 6);
    try {
      const quota = { maxWaiting: 4, nowMs: Date.now(), staleAfterMs: STALE_AFTER_MS };
      const results = await Promise.allSettled(
        Array.from({ length: 7 }, (_, i) =>
          insertWithinQuota(wide, personId, quota, (tx) =>
            insertSimulation(tx, {
              userId: personId,
              name: `race ${i}`,
              source: "lab",
              options: {},
            }),
          ),
        ),
      );
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(4);
      const refusals = results.flatMap((result) =>
        result.status === "rejected" ? [result.reason as { code: string; message: string }] : [],
      );
      expect(refusals.map((refusal) => refusal.code)).toEqual([
        "too_many_requests",
        "too_many_requests",
        "too_many_requests",
      ]);
      expect(refusals[0]!.message).toBe(
        "You have 4 simulations and what-ifs queued or running; one person may have 4 at most: start this one when one of them has finished.",
      );
      expect(await db.simulation.count({ where: { userId: personId } })).toBe(4);
    } finally {
      await wide.$disconnect();
    }
  });
});
