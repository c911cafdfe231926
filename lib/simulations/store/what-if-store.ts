// What a what-if reads (worker side, hence a `db` argument): the draft and the period's tree, the
// clusters, the period's actual demand (jobs with their runs) and, when the hourly roll-ups
// cover the period, what happened.
import { simNowMs } from "../../clock";
import type { BudgetNode } from "../../engine/types";
import type { PeriodReport } from "../../reports/period-report";
import { epochAt } from "../../reports/weights-in-force";
import type { DemandCluster, DemandJob, DraftChild } from "../what-if/demand-scenario";
import type { WhatIfOptions } from "../what-if/summary";
import type { Db } from "../../data/db/client";
import { loadPeriodReview } from "../../data/review";
import { loadTreeEpochs } from "../../data/tick/rollups";

const toSec = (date: Date) => date.getTime() / 1000;

/**
 * The draft a what-if replays, and the tree it applies to: the one in force at `atSec` (the
 * period's last second), built from the weight history as the review reads it, so budgets
 * created later and later weight edits are left out and budgets removed since are kept. Before
 * any recorded weight (no tree then) the live tree stands in.
 */
export async function loadDraftAndTree(
  db: Db,
  draftId: string,
  atSec: number,
): Promise<{ nodeId: string; nodeName: string; children: DraftChild[]; tree: BudgetNode[] }> {
  const draft = await db.budgetDraft.findUniqueOrThrow({
    where: { id: draftId },
    select: { nodeId: true, children: true, node: { select: { name: true } } },
  });
  const inForce = epochAt(await loadTreeEpochs(db), atSec)?.tree;
  const tree = inForce
    ? inForce.nodes.map(({ id, parentId, name, weight }) => ({ id, parentId, name, weight }))
    : await db.budgetNode.findMany({
        where: { removedAt: null },
        select: { id: true, parentId: true, name: true, weight: true },
        orderBy: [{ createdAt: "asc" }, { name: "asc" }],
      });
  return {
    nodeId: draft.nodeId,
    nodeName: draft.node.name,
    children: draft.children as DraftChild[],
    tree,
  };
}

/** The named clusters with their nodes' health (unknown names are left out). */
export async function loadDemandClusters(
  db: Db,
  names: readonly string[],
): Promise<DemandCluster[]> {
  const rows = await db.cluster.findMany({
    where: { name: { in: [...names] } },
    orderBy: { name: "asc" },
    select: {
      name: true,
      gpuType: true,
      lookbackSec: true,
      maxMinRuntimeSec: true,
      nodes: {
        orderBy: { index: "asc" },
        select: { index: true, gpus: true, health: true, healthChangedAt: true },
      },
    },
  });
  return rows.map((row) => ({
    ...row,
    nodes: row.nodes.map((node) => ({
      index: node.index,
      gpus: node.gpus,
      health: node.health,
      healthChangedAtSec: toSec(node.healthChangedAt),
    })),
  }));
}

/**
 * The period's actual demand on the named clusters: jobs submitted in [from, to), and jobs
 * submitted earlier that had not ended by `from` (pending or running at the start), each with
 * its runs.
 */
export async function loadDemandJobs(
  db: Db,
  period: { from: Date; to: Date; clusters: readonly string[] },
): Promise<DemandJob[]> {
  const rows = await db.job.findMany({
    where: {
      cluster: { name: { in: [...period.clusters] } },
      submittedAt: { lt: period.to },
      OR: [
        { submittedAt: { gte: period.from } },
        { endedAt: null },
        { endedAt: { gt: period.from } },
      ],
    },
    orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      budgetId: true,
      userId: true,
      submittedAt: true,
      gpus: true,
      minRuntimeSec: true,
      isResumable: true,
      priority: true,
      jobClass: true,
      workSec: true,
      firstStartedAt: true,
      endedAt: true,
      cluster: { select: { name: true } },
      runs: { select: { startedAt: true, endedAt: true }, orderBy: { startedAt: "asc" } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    budgetId: row.budgetId,
    cluster: row.cluster.name,
    userId: row.userId,
    submittedAtSec: toSec(row.submittedAt),
    gpus: row.gpus,
    minRuntimeSec: row.minRuntimeSec,
    isResumable: row.isResumable,
    priority: row.priority,
    jobClass: row.jobClass,
    workSec: row.workSec,
    firstStartedAtSec: row.firstStartedAt ? toSec(row.firstStartedAt) : null,
    endedAtSec: row.endedAt ? toSec(row.endedAt) : null,
    runs: row.runs.map((run) => ({
      startedAtSec: toSec(run.startedAt),
      endedAtSec: run.endedAt ? toSec(run.endedAt) : null,
    })),
  }));
}

/**
 * What happened in the period: the review loader's report (loadPeriodReview, the review page's
 * figures) on the what-if's clusters, or null when no roll-up covers it.
 */
export async function loadHappened(
  db: Db,
  period: { from: Date; to: Date; clusters: readonly string[] },
): Promise<PeriodReport | null> {
  const { report } = await loadPeriodReview(db, {
    fromSec: toSec(period.from),
    toSec: toSec(period.to),
    clusters: period.clusters,
  });
  // No roll-up hour, or roll-ups from before any recorded weight (no tree): nothing to show.
  return report.clusters.length > 0 && report.nodes.length > 0 ? report : null;
}

/** A what-if's stored options (without `hasControl`: stored when the control always ran). */
export function readWhatIfOptions(options: unknown): {
  from: Date;
  to: Date;
  clusters: string[];
  hasControl: boolean;
} {
  const value = options as WhatIfOptions;
  return {
    from: new Date(value.from),
    to: new Date(value.to),
    clusters: value.clusters,
    hasControl: value.hasControl ?? true,
  };
}

/** The app clock's now (lib/clock.ts), in seconds: open runs of the demand count up to it. */
export async function readAppNowSec(db: Db): Promise<number> {
  const row = await db.appClock.findUnique({ where: { id: 1 } });
  const realMs = Date.now();
  const anchor = row
    ? { realMs: row.realAt.getTime(), simMs: row.simAt.getTime(), speed: row.speed }
    : { realMs, simMs: realMs, speed: 1 };
  return simNowMs(anchor, realMs) / 1000;
}
