// The what-if compares like with like (ADR 085): on the demo lab's seeded history, its "what
// happened" is the review's own rows for the same period and cluster, for the lab and for a
// program, and its replays use the tree as it stood in the period (no later edit, no budget
// created after it). Over a period that takes in the edit, both show the share in force over it.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../../prisma/seed";
import { reviewCsv } from "../../reports/review-csv";
import type { ReviewPeriod } from "../../reports/review-period";
import { hourStartOf } from "../../reports/rollup";
import { runScheduler } from "../run-scenario";
import { prepareWhatIf, summariseWhatIf } from "./what-if-run";
import { openScratchDatabase, type ScratchDatabase } from "../../testing/scratch-database";
import type { WhatIfSummary } from "../what-if/summary";
import { createPrismaClient, type Db } from "../../data/db/client";
import { getNow } from "../../data/db/clock";
import { loadDefaultPeriod } from "../../data/review";
import { loadReviewData } from "../../data/review-page";

const CLUSTER = "b300";
let scratch: ScratchDatabase;
let db: Db;
let nowSec: number;
let period: ReviewPeriod;
let ids: Record<string, string>;

beforeAll(async () => {
  scratch = await openScratchDatabase(inject("databaseUrl"), inject("isEmbeddedDatabase"));
  db = createPrismaClient(scratch.url, 2);
  // 35 days of history ending now; the period both pages open on: the last full month once
  // the roll-ups cover it, else the 30 whole days before today.
  await seedDemoLab(scratch.url);
  nowSec = (await getNow(db)).getTime() / 1000;
  period = await loadDefaultPeriod(db, nowSec);
  const nodes = await db.budgetNode.findMany({ select: { id: true, parentId: true, name: true } });
  const pathOf = (id: string | null): string => {
    const node = nodes.find((candidate) => candidate.id === id);
    if (!node || node.parentId === null) return "";
    const parent = pathOf(node.parentId);
    return parent ? `${parent}/${node.name}` : node.name;
  };
  ids = Object.fromEntries(nodes.map((node) => [pathOf(node.id), node.id]));

  // After the period: lm-eval goes from 1 to 3 and a new project joins language, as a lead's
  // edit would record them (the node's weight and its history). The period ends at the start
  // of today or of this month, so an edit at the start of this hour comes after it; the hour's
  // roll-ups (the seeded history runs up to now) are read with it.
  const at = new Date(hourStartOf(nowSec) * 1000);
  await db.budgetNode.update({ where: { id: ids["language/lm-eval"]! }, data: { weight: 3 } });
  await db.weightChange.create({
    data: { nodeId: ids["language/lm-eval"]!, at, weightBefore: 1, weightAfter: 3 },
  });
  const later = await db.budgetNode.create({
    data: { parentId: ids["language"]!, name: "zz-later", weight: 1, createdAt: at },
    select: { id: true },
  });
  await db.weightChange.create({
    data: { nodeId: later.id, at, weightBefore: null, weightAfter: 1 },
  });
  ids["language/zz-later"] = later.id;
}, 180_000);

afterAll(async () => {
  await db.$disconnect();
  await scratch.drop();
});

/** A draft of `nodeId`'s split, replayed over `over` (default the period) on b300. */
async function runWhatIf(
  nodeId: string,
  children: { id?: string; name: string; weight: number }[],
  over: { fromSec: number; toSec: number; hasControl: boolean } = { ...period, hasControl: true },
): Promise<WhatIfSummary> {
  const author = await db.user.findFirstOrThrow({ where: { isAdmin: true }, select: { id: true } });
  const draft = await db.budgetDraft.create({
    data: { nodeId, authorId: author.id, reason: "test", children, basedOnVersion: 1 },
    select: { id: true },
  });
  const options = {
    from: new Date(over.fromSec * 1000).toISOString(),
    to: new Date(over.toSec * 1000).toISOString(),
    clusters: [CLUSTER],
    hasControl: over.hasControl,
  };
  const prepared = await prepareWhatIf(db, draft.id, options, nowSec);
  if (!prepared.ok) throw new Error(prepared.message);
  const replay = (scenario: NonNullable<typeof prepared.control>) => {
    const outcome = runScheduler(scenario, "allocation", { isTimelineWanted: false });
    return {
      summary: outcome.summary as never,
      waits: outcome.report.jobs.map((job) => job.waitSec),
    };
  };
  const control = prepared.control ? replay(prepared.control) : null;
  return summariseWhatIf(prepared, control, replay(prepared.draft), 0);
}

describe("the what-if's 'what happened' is the review's", () => {
  it("for the lab: the same entitled, received and fulfilment (both), on every row", async () => {
    const summary = await runWhatIf(ids[""]!, [
      { id: ids["language"]!, name: "language", weight: 60 },
      { id: ids["vision"]!, name: "vision", weight: 15 },
      { id: ids["robotics"]!, name: "robotics", weight: 15 },
      { id: ids["science"]!, name: "science", weight: 10 },
    ]);
    const review = await loadReviewData(db, { period, cluster: CLUSTER, nowSec });
    const reviewRow = new Map(review.rows.map((row) => [row.id, row]));
    const lab = summary.rows[0]!;
    expect(lab.id).toBe(ids[""]);
    expect(lab.happened!.entitledGpuHours).toBeGreaterThan(1000);
    expect(lab.happened!.entitledGpuHours).toBe(reviewRow.get(ids[""]!)!.entitledGpuHours);
    // Programs first (the level the draft changes), each followed by its projects and leaves.
    expect(summary.rows.filter((row) => row.depth === 1).map((row) => row.label)).toEqual([
      "language",
      "vision",
      "robotics",
      "science",
    ]);
    expect(summary.rows[1]!.label).toBe("language");
    expect(summary.rows[2]!.label).toMatch(/^language\//);
    for (const row of summary.rows) {
      const expected = reviewRow.get(row.id);
      if (!expected) continue;
      expect([row.label, row.happened!.entitledGpuHours, row.happened!.receivedGpuHours]).toEqual([
        row.label,
        expected.entitledGpuHours,
        expected.receivedGpuHours,
      ]);
      expect(row.happened!.fulfilment).toBe(expected.fulfilment);
      expect(row.happened!.hourlyFulfilment).toBe(expected.hourlyFulfilment);
    }
    // The replays have the hour-by-hour figure too: where the period's is capped at 100%, it
    // is what tells two splits apart.
    expect(lab.draft.hourlyFulfilment).toBeGreaterThan(0);
    expect(lab.draft.hourlyFulfilment).toBeLessThanOrEqual(lab.draft.fulfilment!);
    // The budget created after the period has no review row and is not in the replays' tree.
    expect(summary.rows.some((row) => row.id === ids["language/zz-later"])).toBe(false);
    // A replay's lab row adds up its leaves.
    const leaves = summary.rows.filter((row) => row.isLeaf);
    const sum = leaves.reduce((total, row) => total + row.draft.entitledGpuHours, 0);
    expect(lab.draft.entitledGpuHours).toBeCloseTo(sum, 6);
  }, 180_000);

  it("for a program: the same entitled; the replays use the weights in force in the period", async () => {
    // The draft is made against the live split: lm-eval at 3 and the later project.
    const summary = await runWhatIf(ids["language"]!, [
      { id: ids["language/lm-pretrain"]!, name: "lm-pretrain", weight: 5 },
      { id: ids["language/lm-posttrain"]!, name: "lm-posttrain", weight: 3 },
      { id: ids["language/lm-eval"]!, name: "lm-eval", weight: 4 },
      { id: ids["language/multilingual"]!, name: "multilingual", weight: 2 },
      { id: ids["language/zz-later"]!, name: "zz-later", weight: 1 },
    ]);
    const review = await loadReviewData(db, { period, cluster: CLUSTER, nowSec });
    const language = review.rows.find((row) => row.id === ids["language"])!;
    expect(summary.rows[0]!.happened!.entitledGpuHours).toBe(language.entitledGpuHours);
    expect(Math.round(summary.rows[0]!.happened!.entitledGpuHours)).toBe(
      Math.round(language.entitledGpuHours),
    );
    const row = (path: string) => summary.rows.find((candidate) => candidate.id === ids[path])!;
    // Under the current split as it stood: lm-eval 1 of 11 of language's 40%, not 3 of 13.
    expect(row("language/lm-eval").current!.effectiveShare).toBeCloseTo(0.4 / 11, 5);
    expect(row("language/lm-eval").draft.effectiveShare).toBeCloseTo(0.4 * (4 / 15), 5);
    // The later project exists only in the draft: added, with nothing in the period.
    expect(row("language/zz-later")).toMatchObject({ isNew: true, label: "zz-later" });
    expect(row("language/zz-later").current!.entitledGpuHours).toBe(0);
    expect(row("language/zz-later").happened!.entitledGpuHours).toBe(0);
  }, 180_000);

  it("over a period up to now: the share in force over it, not the last hour's, everywhere", async () => {
    // lm-eval was 1 of 11 of language's 40% until this hour, 3 of 14 since; zz-later exists
    // only in this hour. Read with the last hour's weights they showed 8.6% and 2.9%.
    const upToNow = { ...period, toSec: nowSec };
    const review = await loadReviewData(db, { period: upToNow, cluster: CLUSTER, nowSec });
    const byId = new Map(review.rows.map((row) => [row.id, row]));
    const lmEval = byId.get(ids["language/lm-eval"]!)!;
    const later = byId.get(ids["language/zz-later"]!)!;
    expect(lmEval.effectiveShare).toBeGreaterThan(0.4 / 11);
    expect(lmEval.effectiveShare).toBeLessThan((0.4 / 11) * 1.05);
    expect(later.effectiveShare).toBeGreaterThan(0);
    expect(later.effectiveShare).toBeLessThan(0.002);
    expect(later.entitledGpuHours).toBe(0);
    const csv = reviewCsv(review.rows).split("\r\n");
    const line = csv.find((text) => text.startsWith(`${lmEval.path},`))!.split(",");
    expect(Number(line[csv[0]!.split(",").indexOf("effective_share")])).toBeCloseTo(
      lmEval.effectiveShare,
      6,
    );
    const summary = await runWhatIf(
      ids["language"]!,
      [
        { id: ids["language/lm-pretrain"]!, name: "lm-pretrain", weight: 5 },
        { id: ids["language/lm-posttrain"]!, name: "lm-posttrain", weight: 3 },
        { id: ids["language/lm-eval"]!, name: "lm-eval", weight: 4 },
        { id: ids["language/multilingual"]!, name: "multilingual", weight: 2 },
        { id: ids["language/zz-later"]!, name: "zz-later", weight: 1 },
      ],
      { fromSec: upToNow.fromSec, toSec: upToNow.toSec, hasControl: false },
    );
    const row = (path: string) => summary.rows.find((candidate) => candidate.id === ids[path])!;
    expect(row("language/lm-eval").happened!.effectiveShare).toBe(lmEval.effectiveShare);
    expect(row("language/zz-later").happened!.effectiveShare).toBe(later.effectiveShare);
    // The draft replays lm-eval at 4 of 15: a raise from what was in force, shown as one.
    expect(row("language/lm-eval").draft.effectiveShare).toBeCloseTo(0.4 * (4 / 15), 5);
  }, 180_000);
});
