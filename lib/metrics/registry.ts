// The app's Prometheus metrics (prom-client), in one Registry of its own (docs/operations.md).
// Counters and histograms count what this process did; the gauges describe the database and are
// set from a snapshot read at each scrape (lib/data/metrics-snapshot.ts), so that every replica
// reports the same values. Kept on globalThis: Next loads a module once per bundle, and the tick
// timer (instrumentation) and the routes must count into the same registry.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export const GPU_STATES = ["allocated", "unallocated", "idle", "draining", "down"] as const;
export type GpuState = (typeof GPU_STATES)[number];

export type TickOutcome = "ran" | "locked" | "unusable_tree" | "failed";

const LINT_FAILING_DEFAULTS = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's gauges named *_total break Prometheus' naming rules (`promtool check metrics`
  // fails on them); nodejs_active_handles and the like, by type, say the same.
  for (const name of LINT_FAILING_DEFAULTS) registry.removeSingleMetric(name);
  const registers = [registry];
  return {
    registry,
    clusterGpus: new Gauge({
      name: "allot_cluster_gpus",
      help: "GPUs of a cluster by state; the states add up to the cluster's GPUs.",
      labelNames: ["cluster", "state"] as const,
      registers,
    }),
    pendingJobs: new Gauge({
      name: "allot_cluster_pending_jobs",
      help: "Jobs waiting in a cluster's queue.",
      labelNames: ["cluster"] as const,
      registers,
    }),
    pendingGpus: new Gauge({
      name: "allot_cluster_pending_gpus",
      help: "GPUs asked for by the jobs waiting in a cluster's queue.",
      labelNames: ["cluster"] as const,
      registers,
    }),
    lastTick: new Gauge({
      name: "allot_cluster_last_tick_timestamp_seconds",
      help: "When a cluster's last scheduling pass committed (app clock, Unix seconds).",
      labelNames: ["cluster"] as const,
      registers,
    }),
    budgetUsageRatio: new Gauge({
      name: "allot_budget_usage_ratio",
      help: "A budget's GPU-seconds over the usage window divided by its share of the cluster's GPU-seconds (below 1: under-served), as of the last pass.",
      labelNames: ["cluster", "budget"] as const,
      registers,
    }),
    budgetRank: new Gauge({
      name: "allot_budget_rank",
      help: "A leaf budget's Fair Tree rank on a cluster (1 runs first), as of the last pass.",
      labelNames: ["cluster", "budget"] as const,
      registers,
    }),
    budgetGpusHeld: new Gauge({
      name: "allot_budget_gpus_held",
      help: "GPUs a leaf budget's running jobs hold on a cluster now.",
      labelNames: ["cluster", "budget"] as const,
      registers,
    }),
    lastEventAge: new Gauge({
      name: "allot_executor_last_event_age_seconds",
      help: "Seconds (app clock) since a cluster's executor last sent an event; absent before the first.",
      labelNames: ["cluster"] as const,
      registers,
    }),
    lastSeenAge: new Gauge({
      name: "allot_executor_last_seen_age_seconds",
      help: "Seconds (real time) since a cluster token of the cluster was last used, as a bridge polls its plan every 2 s; written at most once a minute; absent before the first use.",
      labelNames: ["cluster"] as const,
      registers,
    }),
    databaseUp: new Gauge({
      name: "allot_metrics_database_up",
      help: "1 when this scrape read the database, 0 when it could not (the database gauges are then absent).",
      registers,
    }),
    leader: new Gauge({
      name: "allot_leader",
      help: "1 while this process holds the leader lease (it runs the tick timer and the demo executor), else 0.",
      registers,
    }),
    tickDuration: new Histogram({
      name: "allot_tick_duration_seconds",
      help: "Duration of scheduling passes that held the cluster's lock, in seconds.",
      labelNames: ["cluster"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    ticks: new Counter({
      name: "allot_ticks_total",
      help: "Scheduling passes by outcome: ran, locked (another replica held the lock), unusable_tree, failed.",
      labelNames: ["cluster", "outcome"] as const,
      registers,
    }),
    decisions: new Counter({
      name: "allot_decisions_total",
      help: "Scheduling decisions written, by kind (start, preempt, wait, drain) and the rule that decided.",
      labelNames: ["cluster", "kind", "rule"] as const,
      registers,
    }),
    preemptions: new Counter({
      name: "allot_preemptions_total",
      help: "Runs preempted by the scheduler.",
      labelNames: ["cluster"] as const,
      registers,
    }),
    drainsCompleted: new Counter({
      name: "allot_drains_completed_total",
      help: "Draining nodes the scheduler found empty and marked drained (automated drains).",
      labelNames: ["cluster"] as const,
      registers,
    }),
    executorEvents: new Counter({
      name: "allot_executor_events_total",
      help: "Executor events received, by kind and outcome (applied, duplicate, ignored, refused).",
      labelNames: ["cluster", "kind", "outcome"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "allot_http_request_duration_seconds",
      help: "API requests by route pattern, method and status, with their duration in seconds.",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
  };
}

export type AllotMetrics = ReturnType<typeof createMetrics>;

const store = globalThis as unknown as { allotMetrics?: AllotMetrics };

/** The process's metrics. */
export function getMetrics(): AllotMetrics {
  store.allotMetrics ??= createMetrics();
  return store.allotMetrics;
}

/** The names of every metric the app exports, as a query may use them (histograms' series too). */
export function exportedMetricNames(): Set<string> {
  const names = new Set<string>();
  for (const metric of getMetrics().registry.getMetricsAsArray()) {
    const { name, type } = metric as unknown as { name: string; type: string };
    names.add(name);
    if (type === "histogram")
      for (const end of ["_bucket", "_sum", "_count"]) names.add(name + end);
    if (type === "summary") for (const end of ["_sum", "_count"]) names.add(name + end);
  }
  return names;
}
