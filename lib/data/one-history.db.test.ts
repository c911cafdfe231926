// One history, one set of numbers (issue #31, docs/fulfilment.md): a simulated history on one
// cluster, stored and rolled up, gives the same entitled and received GPU-hours and the same
// fulfilment, per budget and for the lab, in the review, its CSV, the what-if's "what
// happened" column and the simulator's own report of that run.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isUnderServed } from "../../components/review/review-format";
import { seedDemoLab } from "../../prisma/seed";
import { simulateLabHistory, type LabHistory } from "../demo/lab-history";
import { buildLabOrg, DEMO_ORG_SEED } from "../demo/lab-org";
import { datePeriod, toIsoDate, type ReviewPeriod } from "../reports/review-period";
import { reviewCsv } from "../reports/review-csv";
import { buildReport, type SimulationReport } from "../sim";
import { runScheduler } from "../simulations/run-scenario";
import { prepareWhatIf, summariseWhatIf } from "../simulations/worker/what-if-run";
import { upsertClusters } from "../demo/seed-org";
import { insertLabHistory } from "../demo/seed-history";
import { openScratchDatabase, type ScratchDatabase } from "../testing/scratch-database";
import type { WhatIfSummary } from "../simulations/what-if/summary";
import { createPrismaClient, type Db } from "./db/client";
import { loadReviewData, type ReviewData } from "./review-page";

const DAY = 86_400;
const cluster = { name: "one-history", gpuType: "B300", nodes: 11, gpusPerNode: 8 };
// Three whole UTC days ending at the midnight before yesterday's: a review period exactly.
const endSec = Math.floor(Date.now() / 1000 / DAY) * DAY - DAY;

let scratch: ScratchDatabase;
let db: Db;
let history: LabHistory;
let period: ReviewPeriod;
let review: ReviewData;
let csv: Map<string, Record<string, string>>;
let whatIf: WhatIfSummary;
let sim: SimulationReport;

/** `csvValue` (CSV text or a report's figure) is `value` rounded to `decimals` (half a unit of the last place off at most). */
function expectRounded(
  csvValue: string | number | undefined,
  value: number,
  decimals: number,
): void {
  expect(Math.abs(Number(csvValue) - value)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9);
}

/** CSV text -> rows by path (no field of this table holds a comma or a quote). */
function parseCsv(text: string): Map<string, Record<string, string>> {
  const [header, ...lines] = text.trimEnd().split("\r\n");
  const names = header!.split(",");
  return new Map(
    lines.map((line) => {
      const cells = line.split(",");
      const row = Object.fromEntries(names.map((name, i) => [name, cells[i] ?? ""]));
      return [row.path!, row];
    }),
  );
}

beforeAll(async () => {
  scratch = await openScratchDatabase(inject("databaseUrl"), inject("isEmbeddedDatabase"));
  db = createPrismaClient(scratch.url, 2);
  await seedDemoLab(scratch.url, { withHistory: false });
  await upsertClusters(db, [cluster]);
  history = simulateLabHistory({
    org: buildLabOrg(DEMO_ORG_SEED),
    endSec,
    seed: 7,
    days: 3,
    clusters: [cluster],
  });
  await insertLabHistory(db, history);
  period = datePeriod(toIsoDate(history.startSec), toIsoDate(endSec - DAY))!;
  expect([period.fromSec, period.toSec]).toEqual([history.startSec, endSec]);

  const nowSec = endSec + DAY;
  review = await loadReviewData(db, { period, cluster: cluster.name, nowSec });
  csv = parseCsv(reviewCsv(review.rows));
  sim = buildReport(history.scenario, history.result);

  // A draft that changes nothing, so only the "what happened" column matters here.
  const root = await db.budgetNode.findFirstOrThrow({
    where: { parentId: null },
    select: { id: true, children: { select: { id: true, name: true, weight: true } } },
  });
  const author = await db.user.findFirstOrThrow({ where: { isAdmin: true }, select: { id: true } });
  const draft = await db.budgetDraft.create({
    data: {
      nodeId: root.id,
      authorId: author.id,
      reason: "one history",
      children: root.children.map(({ id, name, weight }) => ({ id, name, weight })),
      basedOnVersion: 1,
    },
    select: { id: true },
  });
  const prepared = await prepareWhatIf(
    db,
    draft.id,
    {
      from: new Date(period.fromSec * 1000).toISOString(),
      to: new Date(period.toSec * 1000).toISOString(),
      clusters: [cluster.name],
      hasControl: true,
    },
    nowSec,
  );
  if (!prepared.ok) throw new Error(prepared.message);
  const replay = (scenario: NonNullable<typeof prepared.control>) => {
    const outcome = runScheduler(scenario, "allocation", { isTimelineWanted: false });
    return {
      summary: outcome.summary as never,
      waits: outcome.report.jobs.map((job) => job.waitSec),
    };
  };
  whatIf = summariseWhatIf(prepared, replay(prepared.control!), replay(prepared.draft), 0);
}, 180_000);

afterAll(async () => {
  await db.$disconnect();
  await scratch.drop();
});

describe("one history gives the same numbers everywhere", () => {
  it("per budget: review, CSV, what-if 'what happened' and simulator agree", () => {
    const reviewByPath = new Map(review.rows.map((row) => [row.path, row]));
    const whatIfById = new Map(whatIf.rows.map((row) => [row.id, row]));
    let compared = 0;
    for (const budget of sim.budgets) {
      if (budget.entitledGpuHours === 0 && budget.receivedGpuHours === 0) continue;
      const row = reviewByPath.get(budget.path)!;
      const line = csv.get(budget.path)!;
      const happened = whatIfById.get(row.id)!.happened!;
      compared += 1;
      // The simulator rounds hours to 0.1 and ratios to 4 decimals; the CSV hours to 0.01.
      expectRounded(budget.entitledGpuHours, row.entitledGpuHours, 1);
      expectRounded(budget.receivedGpuHours, row.receivedGpuHours, 1);
      expectRounded(line.entitled_gpu_hours, row.entitledGpuHours, 2);
      expectRounded(line.received_gpu_hours, row.receivedGpuHours, 2);
      expect(happened.entitledGpuHours).toBe(row.entitledGpuHours);
      expect(happened.receivedGpuHours).toBe(row.receivedGpuHours);
      if (budget.fulfilment === null) {
        expect([row.fulfilment, line.fulfilment, happened.fulfilment]).toEqual([null, "", null]);
        continue;
      }
      expectRounded(budget.fulfilment, row.fulfilment!, 4);
      expectRounded(line.fulfilment, row.fulfilment!, 4);
      expect(happened.fulfilment).toBe(row.fulfilment);
      // A budget that received its due is at 100% everywhere, and never flagged.
      if (row.receivedGpuHours >= row.entitledGpuHours) {
        expect(isUnderServed(row)).toBe(false);
        if (row.isLeaf) expect(row.fulfilment).toBe(1);
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it("for the lab: headline = lab row = CSV = what-if = simulator", () => {
    const lab = review.rows[0]!;
    expect(lab.depth).toBe(0);
    const labFulfilment = review.headline.fulfilment!;
    expect(labFulfilment).toBeGreaterThan(0);
    expect(lab.fulfilment).toBe(labFulfilment);
    expectRounded(csv.get("")!.fulfilment, labFulfilment, 4);
    const happened = whatIf.rows.find((row) => row.id === lab.id)!.happened!;
    expect(happened.fulfilment).toBe(labFulfilment);
    expect(happened.entitledGpuHours).toBe(lab.entitledGpuHours);
    expect(happened.receivedGpuHours).toBe(lab.receivedGpuHours);
    expectRounded(sim.fulfilment!, labFulfilment, 4);
    expectRounded(sim.hourlyFulfilment!, review.headline.hourlyFulfilment!, 4);
    // "N of M funded budgets at 95% or more" counts the per-budget figure.
    const funded = sim.budgets.filter((budget) => budget.fulfilment !== null);
    expect(review.headline.fundedBudgets).toBe(funded.length);
    expect(review.headline.fundedAtLeast95).toBe(
      funded.filter((budget) => budget.fulfilment! >= 0.95).length,
    );
  });
});
