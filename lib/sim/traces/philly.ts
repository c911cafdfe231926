import { formatDurationSec } from "../duration";
import type { ScenarioFile, ScenarioFileJob } from "../scenario-schema";

/** One job of the Philly trace (reduced Pollux form). */
export type PhillyRow = {
  /** Submit time, Unix seconds (the trace's timestamps are UTC). */
  submitUnixSec: number;
  durationSec: number;
  gpus: number;
  virtualCluster: string;
};

/** How budgets are weighted: by each virtual cluster's GPU-seconds, equally, or as given. */
export type PhillyWeights =
  { kind: "demand" } | { kind: "equal" } | { kind: "given"; weights: Record<string, number> };

/** Options of {@link convertPhillyTrace}. */
export type PhillyOptions = {
  /** GPUs of the one simulated cluster, a multiple of 8 (8 per node). */
  gpus: number;
  weights?: PhillyWeights;
  /** Longest protected period given to a job, seconds (ADR 020: 1 hour). */
  minRuntimeCapSec?: number;
};

/** The protection cap of ADR 020: min(duration, 1 h). */
export const PHILLY_MIN_RUNTIME_CAP_SEC = 3600;

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/**
 * Parses the Philly CSV (`timestamp,duration,num_gpus,gpu_time,cluster`). Returns the rows, or
 * every bad line as `line N: ...`.
 *
 * @example parsePhillyCsv("timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66.0,11cb48\n")
 */
export function parsePhillyCsv(
  text: string,
): { ok: true; rows: PhillyRow[] } | { ok: false; issues: string[] } {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? "").split(",").map((cell) => cell.trim());
  const column = (name: string) => header.indexOf(name);
  const at = {
    ts: column("timestamp"),
    duration: column("duration"),
    gpus: column("num_gpus"),
    vc: column("cluster"),
  };
  const missing = Object.entries(at).filter(([, index]) => index < 0);
  if (missing.length > 0) {
    return {
      ok: false,
      issues: ["line 1: expected columns timestamp, duration, num_gpus, cluster"],
    };
  }
  const rows: PhillyRow[] = [];
  const issues: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "") continue;
    const cells = line.split(",");
    const match = TIMESTAMP.exec((cells[at.ts] ?? "").trim());
    const durationSec = Number(cells[at.duration]);
    const gpus = Number(cells[at.gpus]);
    const virtualCluster = (cells[at.vc] ?? "").trim();
    if (!match) issues.push(`line ${i + 1}: bad timestamp "${cells[at.ts] ?? ""}"`);
    else if (!Number.isFinite(durationSec) || durationSec < 0)
      issues.push(`line ${i + 1}: bad duration`);
    else if (!Number.isInteger(gpus) || gpus <= 0) issues.push(`line ${i + 1}: bad num_gpus`);
    else if (virtualCluster === "" || virtualCluster.includes("/"))
      issues.push(`line ${i + 1}: bad cluster`);
    else {
      const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
      const submitUnixSec = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) / 1000;
      rows.push({ submitUnixSec, durationSec, gpus, virtualCluster });
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, rows };
}

/**
 * Turns Philly rows into a scenario (mapping in docs/decisions/020-philly-mapping.md): one
 * cluster `philly` of `gpus` GPUs (8 per node); each virtual cluster becomes a budget directly
 * under the root, weighted by its GPU-seconds (or equally, or as given); submit times are
 * relative to the earliest; work = duration (at least 1 s); min runtime = min(duration, 1 h);
 * every job resumable, priority normal; baseline: normal priority, not preemptible (the
 * trace's own FIFO-like habit). Jobs wider than the cluster are narrowed to it.
 *
 * @example convertPhillyTrace(rows, { gpus: 384 }).jobs.length === rows.length
 */
export function convertPhillyTrace(
  rows: readonly PhillyRow[],
  options: PhillyOptions,
): ScenarioFile {
  const capSec = options.minRuntimeCapSec ?? PHILLY_MIN_RUNTIME_CAP_SEC;
  const order = rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => a.row.submitUnixSec - b.row.submitUnixSec || a.i - b.i);
  const firstSec = order[0]?.row.submitUnixSec ?? 0;
  const demand = new Map<string, number>();
  for (const { row } of order) {
    demand.set(
      row.virtualCluster,
      (demand.get(row.virtualCluster) ?? 0) + row.gpus * row.durationSec,
    );
  }
  const names = [...demand.keys()].sort();
  const weights = options.weights ?? { kind: "demand" };
  const weightOf = (name: string): number =>
    weights.kind === "equal"
      ? 1
      : weights.kind === "given"
        ? (weights.weights[name] ?? 0)
        : Math.max(1, Math.round((demand.get(name) ?? 0) / 3600));
  const jobs: ScenarioFileJob[] = order.map(({ row, i }) => {
    const workSec = Math.max(1, Math.round(row.durationSec));
    return {
      id: `p${String(i + 1).padStart(5, "0")}`,
      budget: row.virtualCluster,
      cluster: "philly",
      user: row.virtualCluster,
      submit: Math.round(row.submitUnixSec - firstSec),
      gpus: Math.min(row.gpus, options.gpus),
      work: workSec,
      minRuntime: formatDurationSec(Math.min(workSec, capSec)),
      resumable: true,
      priority: "normal",
      baseline: { priority: "normal", preemptible: false },
    };
  });
  return {
    clusters: [
      { name: "philly", gpuType: "GPU", nodes: Math.ceil(options.gpus / 8), gpusPerNode: 8 },
    ],
    tree: { name: "philly", children: names.map((name) => ({ name, weight: weightOf(name) })) },
    settings: { lookback: "7d", maxMinRuntime: "8h" },
    jobs,
  };
}
