// A job's page, GET /api/v1/jobs/{id} and `allot why` show its decisions newest last, and the
// newest ones when there are more than a view holds: a free job waiting for weeks gathers
// hundreds of wait decisions, and its latest is the one a reader asks about.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import { getDb } from "./db/app-db";
import { getJobView, MAX_DECISIONS } from "./job-views";

const databaseUrl = inject("databaseUrl");
const COUNT = MAX_DECISIONS + 20;
const T0_MS = Date.UTC(2026, 10, 1);
let jobId = "";

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const db = getDb();
  const cluster = await db.cluster.findUniqueOrThrow({ where: { name: "b300" } });
  const budget = await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } });
  const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
  const job = await db.job.create({
    data: {
      clusterId: cluster.id,
      budgetId: budget.id,
      userId: user.id,
      name: "a free job that waits for weeks",
      gpus: 8,
      minRuntimeSec: 0,
      isResumable: true,
      state: "cancelled",
      endedAt: new Date(T0_MS + COUNT * 3600_000),
    },
  });
  jobId = job.id;
  // One wait decision an hour: a free job's, as the tick stores them.
  const waiting = (hour: number) => ({
    rule: "wait-unallocated",
    atSec: (T0_MS + hour * 3600_000) / 1000,
    budget: { id: budget.id, path: "language/lm-pretrain", rank: 1, usageRatio: 0 },
    needGpus: 8,
    isWholeNodes: false,
    freeGpus: hour % 8,
    freeWholeNodes: 0,
    cause: "zero-min-runtime",
  });
  await db.decision.createMany({
    data: Array.from({ length: COUNT }, (_, hour) => ({
      clusterId: cluster.id,
      jobId,
      kind: "wait" as const,
      at: new Date(T0_MS + hour * 3600_000),
      reason: waiting(hour),
    })),
  });
});

afterAll(async () => {
  await getDb().job.deleteMany({ where: { id: jobId } });
  await getDb().$disconnect();
});

describe("a job's decisions", () => {
  it("past the view's limit: the newest ones, newest last", async () => {
    const view = await getJobView(jobId);
    expect(view.decisions).toHaveLength(MAX_DECISIONS);
    const hours = view.decisions.map((decision) => (decision.atSec * 1000 - T0_MS) / 3600_000);
    expect(hours.at(-1)).toBe(COUNT - 1);
    expect(hours[0]).toBe(COUNT - MAX_DECISIONS);
    expect(hours).toEqual([...hours].sort((a, b) => a - b));
  });
});
