// The demo executor: a built-in executor for the demo (docs/architecture.md). Per cluster and
// round it replays the lab workload's arrivals, starts what the plan says, stops what it
// preempts, finishes runs whose work is done, and now and then drains a node, takes one
// down and brings it back. It talks through the same functions as the HTTP routes.
import "server-only";
import { getNow } from "../../data/db/clock";
import { getPlan, ingestEvents } from "../../data/executor";
import { submitJobs } from "../../data/jobs";
import {
  countJobs,
  listDemoLeaves,
  listDriverClusters,
  listFinishedRuns,
  listNodeHealth,
  type DriverCluster,
} from "./reads";
import { AppError } from "../../errors";
import type { Logger } from "../../log/logger";
import type { ExecutorEvent } from "../../validation/executor";
import { buildArrivals, WORKLOAD_SEC, type Arrival } from "./arrivals";

export type DriverOptions = {
  seed: number;
  /** Real milliseconds between rounds. */
  roundMs: number;
  /** The server's logger: its lines are in docs/operations.md's table, with a `cluster` field. */
  log: Pick<Logger, "info" | "warn" | "error">;
};

const HOUR_SEC = 3600;
/** Keep the demo light: at most this many pending jobs per GPU... */
const PENDING_PER_GPU = 0.3;
/** ...and never fewer than this cap. */
const MIN_PENDING_CAP = 40;

export type ClusterDriver = {
  cluster: DriverCluster;
  arrivals: Arrival[];
  lastSec: number | null;
};

/** Starts the driver; returns a function that stops it after the current round. */
export async function startDemoExecutor(options: DriverOptions): Promise<() => void> {
  const [clusters, leaves] = await Promise.all([listDriverClusters(), listDemoLeaves()]);
  const arrivals = buildArrivals(leaves, clusters, options.seed);
  const drivers: ClusterDriver[] = clusters.map((cluster) => ({
    cluster,
    arrivals: arrivals.filter((arrival) => arrival.input.cluster === cluster.name),
    lastSec: null,
  }));
  let isStopped = false;
  async function loop(): Promise<void> {
    while (!isStopped) {
      const startedMs = Date.now();
      for (const driver of drivers) {
        try {
          await driveRound(driver, options);
        } catch (error) {
          options.log.error(
            { cluster: driver.cluster.name, err: error },
            "demo executor: round failed",
          );
        }
      }
      const waitMs = Math.max(200, options.roundMs - (Date.now() - startedMs));
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
  void loop();
  return () => {
    isStopped = true;
  };
}

/** Arrivals whose offset in the repeating workload week falls in (fromSec, toSec]. */
function arrivalsBetween(arrivals: Arrival[], fromSec: number, toSec: number): Arrival[] {
  if (toSec - fromSec >= WORKLOAD_SEC) return arrivals;
  const from = ((fromSec % WORKLOAD_SEC) + WORKLOAD_SEC) % WORKLOAD_SEC;
  const to = ((toSec % WORKLOAD_SEC) + WORKLOAD_SEC) % WORKLOAD_SEC;
  return from <= to
    ? arrivals.filter((a) => a.offsetSec > from && a.offsetSec <= to)
    : arrivals.filter((a) => a.offsetSec > from || a.offsetSec <= to);
}

/**
 * One round on one cluster: submits what arrived, acts on the plan (starts, stops, finished
 * runs, node changes) and logs the round when its tick preempted or completed a drain.
 */
export async function driveRound(
  driver: ClusterDriver,
  options: Pick<DriverOptions, "log">,
): Promise<void> {
  const { cluster } = driver;
  const now = await getNow();
  const nowSec = Math.floor(now.getTime() / 1000);
  const counts = await countJobs(cluster.name);
  const cap = Math.max(
    MIN_PENDING_CAP,
    Math.round(cluster.nodes * cluster.gpusPerNode * PENDING_PER_GPU),
  );
  // First round on an idle cluster (a fresh lab, or the seeded history just handed over): the
  // workload's opening backlog; later, what arrived since.
  const due =
    driver.lastSec === null
      ? counts.open === 0
        ? driver.arrivals.filter((a) => a.offsetSec < HOUR_SEC)
        : []
      : arrivalsBetween(driver.arrivals, driver.lastSec, nowSec);
  driver.lastSec = nowSec;
  const room = Math.max(0, cap - counts.pending);
  if (due.length > 0 && room > 0) await submitArrivals(driver, due.slice(0, room), options);

  const plan = await getPlan(cluster.name);
  const events: ExecutorEvent[] = [
    ...plan.starts.map((start) => ({
      id: `started:${start.runId}`,
      kind: "job.started" as const,
      runId: start.runId,
    })),
    ...plan.preemptions.map((stop) => ({
      id: `stopped:${stop.runId}`,
      kind: "job.stopped" as const,
      runId: stop.runId,
    })),
    ...(await listFinishedRuns(cluster.name, now)).map((runId) => ({
      id: `finished:${runId}`,
      kind: "job.finished" as const,
      runId,
    })),
    ...(await nodeEvents(cluster, nowSec)),
  ];
  if (events.length > 0) {
    const result = await ingestEvents(cluster.name, events.slice(0, 500), {
      actor: { source: "demo_driver" },
    });
    const tick = result.tick;
    if (tick && (tick.preemptions > 0 || tick.drainsCompleted > 0)) {
      options.log.info(
        {
          cluster: cluster.name,
          started: tick.starts,
          preempted: tick.preemptions,
          drainsCompleted: tick.drainsCompleted,
          tickMs: tick.durationMs,
        },
        "demo executor: round",
      );
    }
  }
}

/**
 * Submits arrivals as one batch. A batch is all or none, so when a lead removed a budget (or a
 * member left it) the driver drops that budget's arrivals for good, says so, and submits the
 * rest: one removed budget never stops a cluster's demo.
 */
export async function submitArrivals(
  driver: ClusterDriver,
  due: Arrival[],
  options: Pick<DriverOptions, "log">,
): Promise<void> {
  const submit = (arrivals: Arrival[]) =>
    submitJobs(arrivals.map(({ userId, input }) => ({ userId, input })));
  try {
    await submit(due);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "validation_failed") throw error;
    const refusedIndexes = new Set(
      (error.issues ?? []).map((issue) => Number(/^jobs\.(\d+)\./.exec(issue.path)?.[1] ?? 0)),
    );
    const refusedBudgets = new Set(
      due.filter((_, index) => refusedIndexes.has(index)).map((a) => a.input.budgetId),
    );
    driver.arrivals = driver.arrivals.filter((a) => !refusedBudgets.has(a.input.budgetId));
    options.log.warn(
      {
        cluster: driver.cluster.name,
        budgets: refusedBudgets.size,
        reason: error.issues?.[0]?.message ?? error.message,
      },
      "demo executor: stops submitting to budgets that refused its jobs",
    );
    const rest = due.filter((a) => !refusedBudgets.has(a.input.budgetId));
    if (rest.length > 0) await submit(rest);
  }
}

/**
 * Now and then a node drains (maintenance) or goes down, and comes back later; a node an admin
 * drained or marked down stays so until an admin says otherwise.
 */
async function nodeEvents(cluster: DriverCluster, nowSec: number): Promise<ExecutorEvent[]> {
  const nodes = await listNodeHealth(cluster.name);
  const events: ExecutorEvent[] = [];
  const event = (node: number, health: "healthy" | "draining" | "down"): ExecutorEvent => ({
    id: `driver:${node}:${health}:${nowSec}`,
    kind: `node.${health}`,
    node,
  });
  for (const node of nodes) {
    if (node.isSetByPerson) continue;
    const sinceSec = nowSec - node.healthChangedAt.getTime() / 1000;
    const drainedForSec = node.drainedAt ? nowSec - node.drainedAt.getTime() / 1000 : 0;
    if (node.health === "draining" && node.drainedAt && drainedForSec > HOUR_SEC) {
      events.push(event(node.index, "healthy"));
    } else if (node.health === "down" && sinceSec > 2 * HOUR_SEC) {
      events.push(event(node.index, "healthy"));
    }
  }
  const unhealthy = nodes.filter((node) => node.health !== "healthy").length;
  const healthy = nodes.filter((node) => node.health === "healthy");
  // About one maintenance drain per cluster every 6 sim hours, one failure a day; at most 2 at once.
  if (unhealthy < 2 && healthy.length > 0) {
    const pick = healthy[Math.floor(Math.random() * healthy.length)]!;
    const roll = Math.random();
    if (roll < 0.02) events.push(event(pick.index, "draining"));
    else if (roll < 0.025) events.push(event(pick.index, "down"));
  }
  return events;
}
