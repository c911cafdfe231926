import "server-only";
import { getDb } from "../../data/db/app-db";
import type { SimulationSummary } from "../summary";
import type { SimulationOptions } from "../scenario-options";
import type { SimulationStatus } from "../../validation/simulations";
import {
  countRunningSimulations,
  insertSimulation,
  insertWithinQuota,
  type NewSimulation,
  type WaitingQuota,
} from "./simulation-store";

/** A running simulation whose worker has not written for this long is shown as failed. */
export const STALE_AFTER_MS = 15 * 60_000;

/** Headline numbers of one scheduler, for lists. */
export type SchedulerHeadline = {
  utilisation: number;
  /** Null when no budget was owed anything (docs/fulfilment.md). */
  fulfilment: number | null;
  unallocatedShare: number;
  preemptions: number;
  waitP50Sec: Record<string, number>;
};

/** One simulation as pages and the API show it (never the stored blobs). */
export type SimulationView = {
  id: string;
  name: string;
  source: string;
  options: SimulationOptions;
  status: SimulationStatus;
  progress: number;
  phase: string | null;
  error: string | null;
  userName: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  summary: SimulationSummary | null;
};

export type SimulationListItem = Omit<SimulationView, "summary"> & {
  jobCount: number | null;
  headline: Record<string, SchedulerHeadline> | null;
};

/** The columns of a {@link SimulationView}. */
export const SIMULATION_VIEW = {
  id: true,
  name: true,
  source: true,
  options: true,
  status: true,
  progress: true,
  phase: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  updatedAt: true,
  summaryJson: true,
  user: { select: { name: true } },
} as const;

export type SimulationViewRow = {
  id: string;
  name: string;
  source: string;
  options: unknown;
  status: SimulationStatus;
  progress: number;
  phase: string | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
  summaryJson: unknown;
  user: { name: string };
};

/** A row as pages show it; a running one silent for too long shows as failed. */
export function toSimulationView(row: SimulationViewRow, nowMs: number): SimulationView {
  const isStale = row.status === "running" && nowMs - row.updatedAt.getTime() > STALE_AFTER_MS;
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    options: (row.options ?? {}) as SimulationOptions,
    status: isStale ? "failed" : row.status,
    progress: row.progress,
    phase: isStale ? null : row.phase,
    error: isStale ? "The worker stopped before finishing (was the server restarted?)." : row.error,
    userName: row.user.name,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    summary: (row.summaryJson ?? null) as SimulationSummary | null,
  };
}

function toHeadline(summary: SimulationSummary | null): SimulationListItem["headline"] {
  if (!summary) return null;
  return Object.fromEntries(
    Object.entries(summary.schedulers).map(([name, s]) => [
      name,
      {
        utilisation: s.utilisation,
        fulfilment: s.fulfilment,
        unallocatedShare: s.unallocatedShare,
        preemptions: s.preemptions,
        waitP50Sec: Object.fromEntries(
          Object.entries(s.classes).map(([jobClass, c]) => [jobClass, c.waitP50Sec]),
        ),
      },
    ]),
  );
}

/** Queues a simulation within its owner's quota (429 past it); returns its id. */
export async function createSimulation(input: NewSimulation): Promise<string> {
  return insertWithinQuota(getDb(), input.userId, waitingQuotaNow(), (tx) =>
    insertSimulation(tx, input),
  );
}

/** The latest simulations, newest first, with headline numbers. */
export async function listSimulations(limit = 100): Promise<SimulationListItem[]> {
  const rows = await getDb().simulation.findMany({
    where: { kind: "simulation" },
    select: SIMULATION_VIEW,
    orderBy: { createdAt: "desc" },
    take: limit,
  });
  const nowMs = Date.now();
  return rows.map((row) => {
    const { summary, ...view } = toSimulationView(row, nowMs);
    return { ...view, jobCount: summary?.jobCount ?? null, headline: toHeadline(summary) };
  });
}

/** A simulation of the /simulations pages (what-ifs are read through their draft). */
export async function getSimulation(id: string): Promise<SimulationView | null> {
  const row = await getDb().simulation.findFirst({
    where: { id, kind: "simulation" },
    select: SIMULATION_VIEW,
  });
  return row ? toSimulationView(row, Date.now()) : null;
}

/**
 * A stored result as gzip JSON, as stored: the report ({ baseline, allocation }) or the
 * timelines; null bytes while the simulation has not finished.
 */
export async function getSimulationResultGz(
  id: string,
  which: "report" | "timeline",
): Promise<{ name: string; gz: Uint8Array<ArrayBuffer> | null } | null> {
  const row = await getDb().simulation.findFirst({
    where: { id, kind: "simulation" },
    select: { name: true, reportGz: which === "report", timelineGz: which === "timeline" },
  });
  if (!row) return null;
  return { name: row.name, gz: (which === "report" ? row.reportGz : row.timelineGz) ?? null };
}

/** How many simulations and what-ifs one person may have queued or running at once. */
export const MAX_WAITING_PER_PERSON = 4;

/** The quota of {@link MAX_WAITING_PER_PERSON} as of now: two workers serve everyone, in turn. */
export function waitingQuotaNow(): WaitingQuota {
  return { maxWaiting: MAX_WAITING_PER_PERSON, nowMs: Date.now(), staleAfterMs: STALE_AFTER_MS };
}

/** How many simulations workers are running now. */
export async function countRunning(): Promise<number> {
  return countRunningSimulations(getDb());
}
