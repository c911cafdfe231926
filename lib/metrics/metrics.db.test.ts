// GET /metrics through its route handler on a seeded database: the guard, the real exposition
// text through `promtool check metrics` (Debian's prometheus package), and values that agree
// with the cluster views and with what the requests before it did.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { removeTestCluster } from "../testing/remove-cluster";
import { seedDemoLab } from "../../prisma/seed";
import { GET as getMetricsRoute } from "../../app/metrics/route";
import { POST as postEvents } from "../../app/api/v1/clusters/[name]/events/route";
import { POST as postJob } from "../../app/api/v1/jobs/route";
import { createPrismaClient } from "../data/db/client";
import { setNodeHealthFor } from "../data/node-health";
import { listClusterLoads } from "../data/queue";
import { createClusterToken } from "../data/tokens";
import { DEMO_USERS } from "../demo/lab-org";
import { createPersonalToken } from "../demo/seed-org";
import { GPU_STATES } from "./registry";
import { renderMetrics } from "./scrape";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const CLUSTER = "zz-metrics";
const METRICS_TOKEN = "zz-metrics-token-7f3a9c";
let clusterToken = "";
let personalToken = "";
let leafId = "";

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of an exposition text (enough of the format for the app's own output). */
function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number | null {
  const found = samples.find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return found ? found.value : null;
}

function scrape(headers: Record<string, string> = {}): Promise<Response> {
  return getMetricsRoute(new Request("http://localhost/metrics", { headers }), undefined);
}

async function scrapeText(): Promise<string> {
  const response = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` });
  expect(response.status).toBe(200);
  return response.text();
}

function post(url: string, token: string, body: unknown): Request {
  return new Request(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  process.env.ALLOT_METRICS_TOKEN = METRICS_TOKEN;
  await seedDemoLab(databaseUrl, { withHistory: false });
  const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  const researcher = await db.user.findUniqueOrThrow({
    where: { email: DEMO_USERS.researcher.email },
  });
  leafId = (await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } })).id;
  // A cluster of its own (4 nodes of 8 GPUs): the seeded ones belong to other test files.
  await db.cluster.create({
    data: {
      name: CLUSTER,
      gpuType: "test",
      nodes: { create: [0, 1, 2, 3].map((index) => ({ index, gpus: 8, health: "healthy" })) },
    },
  });
  clusterToken = (await createClusterToken(CLUSTER, "zz-metrics executor", admin.id)).token;
  personalToken = await createPersonalToken(db, researcher.id, "zz-metrics");
});

afterAll(async () => {
  delete process.env.ALLOT_METRICS_TOKEN;
  await removeTestCluster(db, CLUSTER);
  await db.$disconnect();
});

describe("GET /metrics", () => {
  it("answers 401 in the API's error shape without the token, and 403 when metrics are off", async () => {
    const missing = await scrape();
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(await missing.json()).toEqual({
      error: {
        code: "unauthorized",
        message: "Send 'Authorization: Bearer <ALLOT_METRICS_TOKEN>' to read the metrics.",
      },
    });
    const wrong = await scrape({ authorization: "Bearer zz-metrics-token-wrong" });
    expect(wrong.status).toBe(401);
    // A client's own peer-address header is no way in (scripts/serve.ts sets the real one).
    const spoofed = await scrape({ "x-allot-peer-address": "127.0.0.1" });
    expect(spoofed.status).toBe(401);
    delete process.env.ALLOT_METRICS_TOKEN;
    try {
      const off = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` });
      expect(off.status).toBe(403);
      expect(((await off.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    } finally {
      process.env.ALLOT_METRICS_TOKEN = METRICS_TOKEN;
    }
  });

  it("passes promtool check metrics and reports what the requests before it did", async () => {
    const before = parseSamples(await scrapeText());
    const counter = (samples: Sample[], name: string, labels: Record<string, string>) =>
      valueOf(samples, name, labels) ?? 0;

    // Two jobs: one starts, one (as big as the cluster) waits; then a node drains, with its
    // event sent twice.
    for (const [name, gpus] of [
      ["zz-metrics fits", 8],
      ["zz-metrics waits", 32],
    ] as const) {
      const response = await postJob(
        post("http://localhost/api/v1/jobs", personalToken, {
          cluster: CLUSTER,
          budgetId: leafId,
          name,
          gpus,
          minRuntimeSec: 600,
        }),
        undefined,
      );
      expect(response.status).toBe(201);
    }
    const event = { id: "zz-metrics-drain-3", kind: "node.draining", node: 3 };
    const events = await postEvents(
      post(`http://localhost/api/v1/clusters/${CLUSTER}/events`, clusterToken, {
        events: [event, event],
      }),
      { params: Promise.resolve({ name: CLUSTER }) },
    );
    expect(events.status).toBe(200);

    const text = await scrapeText();
    if (process.env.ALLOT_METRICS_SAMPLE) writeFileSync(process.env.ALLOT_METRICS_SAMPLE, text);
    const promtool = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(promtool.error, "promtool is missing: apt-get install prometheus").toBeUndefined();
    expect({ status: promtool.status, output: promtool.stdout + promtool.stderr }).toEqual({
      status: 0,
      output: "",
    });

    const after = parseSamples(text);
    expect(valueOf(after, "allot_metrics_database_up", {})).toBe(1);
    // The GPU states agree with the cluster views and add up to every GPU.
    const loads = await listClusterLoads();
    // The database is shared by the run's test files: other clusters may be there too.
    expect(loads.length).toBeGreaterThanOrEqual(3);
    for (const load of loads) {
      const cluster = load.name;
      const states = GPU_STATES.map(
        (state) => valueOf(after, "allot_cluster_gpus", { cluster, state }) ?? -1,
      );
      expect(states).toEqual([
        load.allocatedGpus,
        load.unallocatedGpus,
        load.idleGpus,
        load.drainingGpus,
        load.downGpus,
      ]);
      expect(states.reduce((sum, gpus) => sum + gpus, 0)).toBe(load.gpus);
      expect(valueOf(after, "allot_cluster_pending_jobs", { cluster })).toBe(load.pendingJobs);
      expect(valueOf(after, "allot_cluster_pending_gpus", { cluster })).toBe(load.pendingGpus);
    }
    const own = loads.find((load) => load.name === CLUSTER)!;
    expect(own.drainingGpus).toBe(8);
    expect(own.pendingGpus).toBeGreaterThanOrEqual(32);

    // The budget that holds the running job: its GPUs, its rank and its usage ratio.
    const budget = after.find(
      (sample) =>
        sample.name === "allot_budget_gpus_held" &&
        sample.labels.cluster === CLUSTER &&
        sample.labels.budget?.endsWith("/lm-pretrain"),
    );
    const held = await db.run.aggregate({
      where: { endedAt: null, budgetId: leafId, cluster: { name: CLUSTER } },
      _sum: { gpus: true },
    });
    expect(budget?.value).toBe(held._sum.gpus);
    expect(budget?.value).toBeGreaterThanOrEqual(8);
    const labels = { cluster: CLUSTER, budget: budget!.labels.budget! };
    expect(valueOf(after, "allot_budget_rank", labels)).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, "allot_budget_usage_ratio", labels)).not.toBeNull();
    // Every budget has a label Prometheus keeps: the root goes by its name, never "".
    const budgetLabels = after.flatMap((sample) =>
      sample.name === "allot_budget_usage_ratio" && sample.labels.cluster === CLUSTER
        ? [sample.labels.budget]
        : [],
    );
    expect(budgetLabels).toContain("lab");
    expect(budgetLabels).not.toContain("");

    // Counters: the drain's event once applied and once a duplicate; ticks ran and decided.
    const delta = (name: string, labels: Record<string, string>) =>
      counter(after, name, labels) - counter(before, name, labels);
    expect(
      delta("allot_executor_events_total", {
        cluster: CLUSTER,
        kind: "node.draining",
        outcome: "applied",
      }),
    ).toBe(1);
    expect(
      delta("allot_executor_events_total", {
        cluster: CLUSTER,
        kind: "node.draining",
        outcome: "duplicate",
      }),
    ).toBe(1);
    expect(delta("allot_ticks_total", { cluster: CLUSTER, outcome: "ran" })).toBeGreaterThanOrEqual(
      2,
    );
    expect(delta("allot_tick_duration_seconds_count", { cluster: CLUSTER })).toBeGreaterThanOrEqual(
      2,
    );
    expect(
      delta("allot_decisions_total", { cluster: CLUSTER, kind: "start" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      after.some(
        (sample) =>
          sample.name === "allot_decisions_total" &&
          sample.labels.cluster === CLUSTER &&
          sample.labels.kind === "wait" &&
          sample.labels.rule !== "none",
      ),
    ).toBe(true);
    expect(
      valueOf(after, "allot_executor_last_event_age_seconds", { cluster: CLUSTER }),
    ).toBeGreaterThanOrEqual(0);
    // A cluster whose executor never sent an event has no age at all.
    const withEvents = new Set(
      (await db.executorEvent.findMany({ select: { cluster: { select: { name: true } } } })).map(
        (row) => row.cluster.name,
      ),
    );
    for (const load of loads) {
      const age = valueOf(after, "allot_executor_last_event_age_seconds", { cluster: load.name });
      expect(age === null, load.name).toBe(!withEvents.has(load.name));
    }
    expect(
      delta("allot_http_request_duration_seconds_count", {
        route: "/api/v1/jobs",
        method: "POST",
        status: "201",
      }),
    ).toBe(2);
    // The executor's token was used just now (its events); a cluster whose token never was, or
    // that has none, has no age: an idle cluster's bridge still shows by its plan polls.
    const seen = valueOf(after, "allot_executor_last_seen_age_seconds", { cluster: CLUSTER });
    expect(seen).toBeGreaterThanOrEqual(0);
    expect(seen).toBeLessThan(120);
  });

  it("does not count an admin's node health change as the executor's activity", async () => {
    const quiet = `${CLUSTER}-quiet`;
    await db.cluster.create({
      data: { name: quiet, gpuType: "test", nodes: { create: [{ index: 0, gpus: 8 }] } },
    });
    try {
      const admin = await db.user.findUniqueOrThrow({
        where: { email: DEMO_USERS.admin.email },
        select: { id: true, email: true, name: true, isAdmin: true },
      });
      await setNodeHealthFor(admin, quiet, 0, { health: "draining", reason: "zz-metrics check" });
      expect(await db.clusterNode.findFirst({ where: { cluster: { name: quiet } } })).toMatchObject(
        {
          health: "draining",
        },
      );
      const samples = parseSamples(await scrapeText());
      expect(valueOf(samples, "allot_executor_last_event_age_seconds", { cluster: quiet })).toBe(
        null,
      );
      expect(valueOf(samples, "allot_executor_events_total", { cluster: quiet })).toBe(null);
      // No token of its own was ever used: no bridge has called for it.
      expect(valueOf(samples, "allot_executor_last_seen_age_seconds", { cluster: quiet })).toBe(
        null,
      );
    } finally {
      await removeTestCluster(db, quiet);
    }
  });

  it("still serves the counters when the database cannot be read", async () => {
    const { text } = await renderMetrics(() => Promise.resolve(null));
    const samples = parseSamples(text);
    expect(valueOf(samples, "allot_metrics_database_up", {})).toBe(0);
    expect(samples.some((sample) => sample.name === "allot_cluster_gpus")).toBe(false);
    expect(samples.some((sample) => sample.name === "allot_ticks_total")).toBe(true);
  });
});
