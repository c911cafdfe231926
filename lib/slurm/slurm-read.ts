// What the bridge reads from SLURM: `squeue --json` and `sinfo --json` (openapi v0.0.38, SLURM
// 22.05) turned into small typed snapshots, and `sacct` for jobs squeue has forgotten. Pure.

/** One SLURM job as the bridge needs it. */
export type SlurmJob = {
  id: string;
  account: string;
  user: string;
  name: string;
  /** PENDING, RUNNING, COMPLETING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ... */
  state: string;
  reason: string;
  /** 0 while held (job_submit.lua holds every new job). */
  priority: number;
  /** All GPUs of the job (gres/gpu of its request). */
  gpus: number;
  nodeCount: number;
  /** GPUs per node when asked per node (--gres=gpu:N), else null. */
  gpusPerNode: number | null;
  /** --time-min in seconds, or null when not given. */
  minRuntimeSec: number | null;
  isRequeueable: boolean;
  nice: number;
  comment: string;
  /** The nodes it runs on (empty while pending). */
  nodes: string[];
  /** Exit status of the batch script (raw wait status >> 8), when it ended. */
  exitCode: number;
};

export type SlurmNode = {
  name: string;
  gpus: number;
  /** idle, mixed, allocated, down, ... */
  state: string;
  /** DRAIN, NOT_RESPONDING, ... */
  flags: string[];
  reason: string;
};

/** Jobs in these states are over (squeue keeps them for MinJobAge seconds). */
export const TERMINAL_STATES = new Set([
  "COMPLETED",
  "FAILED",
  "CANCELLED",
  "TIMEOUT",
  "OUT_OF_MEMORY",
  "NODE_FAIL",
  "BOOT_FAIL",
  "DEADLINE",
  "PREEMPTED",
]);

type RawJob = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number => (typeof value === "number" ? value : 0);

/** "gres/gpu=16" in a TRES string, or "gres:gpu:8" / "gres:gpu:h100:8" in a per-node request. */
function gpuCount(tres: string, separator: "=" | ":"): number | null {
  const pattern = separator === "=" ? /gres\/gpu(?::[^=,]+)?=(\d+)/ : /gres:gpu(?::[^:,]+)?:(\d+)/;
  const match = pattern.exec(tres);
  return match ? Number(match[1]) : null;
}

/** Parses `squeue --json`. */
export function parseSqueue(json: string): SlurmJob[] {
  const jobs = (JSON.parse(json) as { jobs?: RawJob[] }).jobs ?? [];
  return jobs.map((job) => {
    const perNode = gpuCount(text(job.tres_per_node), ":");
    const nodeCount = Math.max(1, num(job.node_count));
    const total =
      gpuCount(text(job.tres_req_str), "=") ??
      gpuCount(text(job.tres_per_job), ":") ??
      (perNode === null ? 0 : perNode * nodeCount);
    const minutes = num(job.time_minimum);
    return {
      id: String(job.job_id),
      account: text(job.account),
      user: text(job.user_name),
      name: text(job.name),
      state: text(job.job_state),
      reason: text(job.state_reason),
      priority: num(job.priority),
      gpus: total,
      nodeCount,
      gpusPerNode: perNode,
      minRuntimeSec: minutes > 0 ? minutes * 60 : null,
      isRequeueable: job.requeue === true,
      nice: num(job.nice),
      comment: text(job.comment),
      nodes: expandHostlist(text(job.nodes)),
      exitCode: Math.floor(num(job.exit_code) / 256),
    };
  });
}

/** Parses `sinfo --json` (one entry per node). */
export function parseSinfo(json: string): SlurmNode[] {
  const all = (JSON.parse(json) as { nodes?: RawJob[] }).nodes ?? [];
  // A node in several partitions is listed once per partition.
  const nodes = [...new Map(all.map((node) => [text(node.name), node])).values()];
  return nodes.map((node) => ({
    name: text(node.name),
    gpus: gpuCount(text(node.gres).replace(/^gpu/, "gres:gpu"), ":") ?? 0,
    state: text(node.state).toLowerCase(),
    flags: Array.isArray(node.state_flags) ? node.state_flags.map(String) : [],
    reason: text(node.reason),
  }));
}

/** An ended job as sacct remembers it: its last record's state and exit code. */
export type SacctRecord = { id: string; state: string; exitCode: number };

/** Parses `sacct -X -P -n -o JobID,State,ExitCode`: the last record of each job wins. */
export function parseSacct(output: string): Map<string, SacctRecord> {
  const records = new Map<string, SacctRecord>();
  for (const line of output.split("\n")) {
    const [id, state, exit] = line.trim().split("|");
    if (!id || !state) continue;
    records.set(id, {
      id,
      // "CANCELLED by 0" -> "CANCELLED"
      state: state.split(" ")[0]!,
      exitCode: Number((exit ?? "0").split(":")[0]) || 0,
    });
  }
  return records;
}

/**
 * SLURM's compact host lists: "n[1-3,5],gpu-a7" -> n1, n2, n3, n5, gpu-a7. Keeps zero padding
 * ("n[01-02]" -> n01, n02).
 */
export function expandHostlist(list: string): string[] {
  const hosts: string[] = [];
  for (const part of list.match(/[^,[]+(?:\[[^\]]*\])?[^,]*/g) ?? []) {
    const match = /^([^[]*)\[([^\]]*)\](.*)$/.exec(part);
    if (!match) {
      if (part !== "") hosts.push(part);
      continue;
    }
    const [, prefix, ranges, suffix] = match;
    for (const range of ranges!.split(",")) {
      const [from, to = from] = range.split("-");
      const width = from!.length;
      for (let n = Number(from); n <= Number(to); n += 1) {
        hosts.push(`${prefix}${String(n).padStart(width, "0")}${suffix}`);
      }
    }
  }
  return hosts;
}
