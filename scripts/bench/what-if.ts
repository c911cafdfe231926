// npm run bench what-if - a what-if over a month of the demo lab, end to end through the
// simulation worker as the browser starts it: time from queued to the stored result, and the
// progress the page would show on the way (issue #7: at most 15 s with visible progress), as the
// form starts it (the draft's replay only) and with the current split replayed as a control.
// The month: the demo lab's own workload (lib/demo/executor/arrivals, the demo executor's arrivals),
// five generated weeks laid end to end and cut at 30 days, on a fresh database with the demo
// seed. Uses DATABASE_URL's server (a throw-away database) when set, else the embedded one.
import { spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { createPrismaClient } from "../../lib/data/db/client";
import { startEmbeddedPostgres } from "../../lib/data/db/embedded-postgres";
import { applyMigrations } from "../../lib/data/db/migrator";
import { buildArrivals, WORKLOAD_SEC, type DemoLeaf } from "../../lib/demo/executor/arrivals";
import { classifyJob, SCHEDULERS, simulateClusters } from "../../lib/sim";
import { runScheduler } from "../../lib/simulations/run-scenario";
import { prepareWhatIf } from "../../lib/simulations/worker/what-if-run";
import type { WhatIfSummary } from "../../lib/simulations/what-if/summary";
import { seedDemoLab } from "../../prisma/seed";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const DAY_MS = 86_400_000;
const FROM = new Date("2026-10-01T00:00:00Z");
const TO = new Date(FROM.getTime() + 30 * DAY_MS);

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.DATABASE_URL?.trim();
  if (!server) {
    const embedded = await startEmbeddedPostgres("memory://");
    return { url: embedded.url, drop: () => embedded.stop() };
  }
  const name = `allot_bench_what_if_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function measureWhatIf(
  db: ReturnType<typeof createPrismaClient>,
  url: string,
  runId: string,
  hasControl: boolean,
): Promise<void> {
  const startedMs = performance.now();
  const worker = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "lib", "simulations", "worker", "sim-worker.ts"), runId],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, stdio: "inherit" },
  );
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  const samples: { atSec: number; progress: number; phase: string | null }[] = [];
  let row = await db.simulation.findUniqueOrThrow({ where: { id: runId } });
  while (row.status === "queued" || row.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, 250));
    row = await db.simulation.findUniqueOrThrow({ where: { id: runId } });
    const last = samples.at(-1);
    if (!last || last.progress !== row.progress) {
      samples.push({
        atSec: (performance.now() - startedMs) / 1000,
        progress: row.progress,
        phase: row.phase,
      });
    }
  }
  const totalSec = (performance.now() - startedMs) / 1000;
  await exited;
  if (row.status !== "done") throw new Error(`The what-if ${row.status}: ${row.error}`);
  const summary = row.summaryJson as unknown as WhatIfSummary;
  const firstVisible = samples.find((sample) => sample.progress > 0.05);
  const replays = hasControl ? "draft + control replays" : "draft replay only";
  console.log(
    [
      `what-if, demo lab month (${summary.stats.jobs.toLocaleString("en-US")} jobs, 1,624 GPUs, ${replays})`,
      `queued to result ${totalSec.toFixed(1)} s`,
      `of which reading ${summary.timings.loadSec} s, replays ${summary.timings.simulateSec} s`,
      `${samples.length} progress updates, first past 5% at ${firstVisible?.atSec.toFixed(1) ?? "-"} s`,
      `${availableParallelism()} threads, load average ${loadavg()[0]!.toFixed(1)}`,
      `target <= 15 s: ${totalSec <= 15 ? "met" : "MISSED"}`,
    ].join(" · "),
  );
  for (const sample of samples.filter((_, i) => i % 4 === 0)) {
    console.log(
      `  ${sample.atSec.toFixed(1)} s  ${Math.round(sample.progress * 100)}%  ${sample.phase ?? ""}`,
    );
  }
}

async function main(): Promise<void> {
  const database = await freshDatabase();
  try {
    await applyMigrations(database.url);
    await seedDemoLab(database.url, { withHistory: false });
    const db = createPrismaClient(database.url, 4);
    const [nodes, members, clusters, lead] = await Promise.all([
      db.budgetNode.findMany({ select: { id: true, parentId: true, name: true, version: true } }),
      db.budgetMember.findMany({ select: { nodeId: true, userId: true } }),
      db.cluster.findMany({ select: { id: true, name: true, gpuType: true, nodes: true } }),
      db.user.findUniqueOrThrow({ where: { email: "priya@allot.example" } }),
    ]);
    const byId = new Map(nodes.map((node) => [node.id, node]));
    const pathOf = (id: string): string => {
      const node = byId.get(id)!;
      return node.parentId === null
        ? ""
        : [pathOf(node.parentId), node.name].filter(Boolean).join("/");
    };
    const parents = new Set(nodes.map((node) => node.parentId));
    const leaves: DemoLeaf[] = nodes
      .filter((node) => !parents.has(node.id) && node.parentId !== null)
      .map((node) => ({
        id: node.id,
        path: pathOf(node.id),
        memberIds: members.filter((m) => m.nodeId === node.id).map((m) => m.userId),
      }));
    const clusterSpecs = clusters.map((cluster) => ({
      name: cluster.name,
      gpuType: cluster.gpuType,
      nodes: cluster.nodes.length,
      gpusPerNode: 8,
    }));
    const clusterId = new Map(clusters.map((cluster) => [cluster.name, cluster.id]));
    const rows = [];
    for (let week = 0; week * WORKLOAD_SEC < 30 * 86_400; week += 1) {
      for (const arrival of buildArrivals(leaves, clusterSpecs, 1 + week)) {
        const atMs = FROM.getTime() + (week * WORKLOAD_SEC + arrival.offsetSec) * 1000;
        if (atMs >= TO.getTime()) continue;
        const input = arrival.input;
        rows.push({
          clusterId: clusterId.get(input.cluster)!,
          budgetId: input.budgetId,
          userId: arrival.userId,
          name: input.name,
          gpus: input.gpus,
          minRuntimeSec: input.minRuntimeSec,
          isResumable: input.isResumable,
          priority: input.priority,
          jobClass: input.name.split("-")[0] ?? classifyJob(input.minRuntimeSec, input.gpus),
          state: "completed" as const,
          submittedAt: new Date(atMs),
          endedAt: new Date(atMs + (input.workSec ?? 3600) * 1000),
          workSec: input.workSec ?? null,
        });
      }
    }
    // 2,000 rows of 14 columns (the id included) stay under Postgres's 32,767 bound parameters:
    // past it, Prisma splits an insert and sends the parts at once on one connection, which pg
    // deprecates (and pg 9 will refuse).
    for (let at = 0; at < rows.length; at += 2000) {
      await db.job.createMany({ data: rows.slice(at, at + 2000) });
    }
    const language = nodes.find((node) => node.name === "language" && node.parentId !== null)!;
    const children = nodes
      .filter((node) => node.parentId === language.id)
      .map((node, index) => ({
        id: node.id,
        name: node.name,
        weight: index === 2 ? 4 : 1 + index,
      }));
    const draft = await db.budgetDraft.create({
      data: {
        nodeId: language.id,
        authorId: lead.id,
        reason: "bench",
        children,
        basedOnVersion: language.version,
      },
    });
    const options = {
      from: FROM.toISOString(),
      to: TO.toISOString(),
      clusters: ["b200", "b300", "h100"],
    };
    // As the form starts it (no control), then with the current split replayed as a control.
    for (const hasControl of [false, true]) {
      const run = await db.simulation.create({
        data: {
          kind: "what-if",
          source: "what-if",
          userId: lead.id,
          draftId: draft.id,
          name: "bench month",
          options: { ...options, hasControl },
        },
      });
      await measureWhatIf(db, database.url, run.id, hasControl);
    }
    // The draft's replay in this process, cluster by cluster, for its CPU time (wall time on a
    // shared machine varies); the threads' critical path is the largest cluster.
    const prepared = await prepareWhatIf(db, draft.id, options, TO.getTime() / 1000);
    if (!prepared.ok) throw new Error(prepared.message);
    const figures = [];
    for (const cluster of prepared.draft.clusters) {
      const cpuStart = process.cpuUsage();
      const wallStart = performance.now();
      simulateClusters(prepared.draft, [cluster.name], SCHEDULERS.allocation);
      const cpu = process.cpuUsage(cpuStart);
      const jobs = prepared.draft.jobs.filter((job) => job.cluster === cluster.name).length;
      figures.push(
        `${cluster.name} (${jobs.toLocaleString("en-US")} jobs) wall ${((performance.now() - wallStart) / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`,
      );
    }
    const wallStart = performance.now();
    runScheduler(prepared.draft, "allocation", { isTimelineWanted: false });
    console.log(
      `the draft's replay in one thread: ${((performance.now() - wallStart) / 1000).toFixed(1)} s (${figures.join("; ")})`,
    );
    await db.$disconnect();
  } finally {
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
