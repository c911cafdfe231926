// What the bridge reads from SLURM: `squeue` (text) and `sinfo --json` (openapi v0.0.38, SLURM
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
  /** When it started (ms since the epoch), or null before it has. */
  startedAtMs: number | null;
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

/** "gres:gpu:8" or "gres:gpu:h100:8" in a TRES request (per node or per job). */
function gpuCount(tres: string): number | null {
  const match = /gres:gpu(?::[^:,]+)?:(\d+)/.exec(tres);
  return match ? Number(match[1]) : null;
}

/**
 * The fields `squeue -O` prints, "|"-separated, the comment last (it may hold "|" itself).
 * Text, not `--json`: on SLURM 22.05 `squeue --json` costs about 0.3 s of CPU per call with a
 * few thousand jobs listed, the text form 0.02 s, and the bridge calls it every round.
 */
export const SQUEUE_FIELDS = [
  "JobID",
  "Account",
  "UserName",
  "State",
  "Reason",
  "PriorityLong",
  "tres-per-node",
  "tres-per-job",
  "NumNodes",
  "MinTime",
  "Requeue",
  "Nice",
  "exit_code",
  "StartTime",
  "NodeList",
  "Name",
  "Comment",
] as const;

/** squeue's arguments: every job it still lists (ended ones for MinJobAge), no header. */
export const SQUEUE_ARGS = ["-h", "-t", "all", "-O", SQUEUE_FIELDS.map((f) => `${f}:|`).join(",")];

/** SLURM's durations: "mm:ss", "hh:mm:ss" or "d-hh:mm:ss"; seconds, or null when not a time. */
export function parseSlurmDuration(value: string): number | null {
  const match = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+)$/.exec(value.trim());
  if (!match) return null;
  const [, days, hours, minutes, seconds] = match;
  return (
    ((Number(days ?? 0) * 24 + Number(hours ?? 0)) * 60 + Number(minutes)) * 60 + Number(seconds)
  );
}

/**
 * squeue's times: epoch seconds, as the bridge asks for them (`SLURM_TIME_FORMAT=%s`, see
 * slurm-cli.ts), or SLURM's default "2026-12-08T09:30:00" in this process's time zone (squeue
 * prints its own, inherited from this process); ms since the epoch, or null ("N/A", "Unknown").
 */
export function parseSlurmTime(value: string): number | null {
  const text = value.trim();
  if (/^\d{9,11}$/.test(text)) return Number(text) * 1000;
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

const orEmpty = (value: string | undefined) =>
  value === undefined || value === "(null)" || value === "N/A" ? "" : value;

/** Parses the output of `squeue` with {@link SQUEUE_ARGS}. */
export function parseSqueue(output: string): SlurmJob[] {
  const jobs: SlurmJob[] = [];
  for (const line of output.split("\n")) {
    if (line.trim() === "") continue;
    const parts = line.split("|");
    const field = (name: (typeof SQUEUE_FIELDS)[number]) => parts[SQUEUE_FIELDS.indexOf(name)];
    // The comment is last and may hold "|"; squeue leaves the last separator out.
    const comment = parts
      .slice(SQUEUE_FIELDS.length - 1)
      .join("|")
      .replace(/\|$/, "");
    const nodeCount = Math.max(1, Number(field("NumNodes")) || 1);
    const perNode = gpuCount(orEmpty(field("tres-per-node")));
    const perJob = gpuCount(orEmpty(field("tres-per-job")));
    const minSec = parseSlurmDuration(field("MinTime") ?? "");
    jobs.push({
      id: field("JobID") ?? "",
      account: orEmpty(field("Account")),
      user: orEmpty(field("UserName")),
      name: orEmpty(field("Name")),
      state: orEmpty(field("State")),
      reason: orEmpty(field("Reason")),
      priority: Number(field("PriorityLong")) || 0,
      gpus: perJob ?? (perNode === null ? 0 : perNode * nodeCount),
      nodeCount,
      gpusPerNode: perNode,
      minRuntimeSec: minSec ? minSec : null,
      isRequeueable: field("Requeue") === "1",
      nice: Number(field("Nice")) || 0,
      comment: orEmpty(comment),
      nodes: expandHostlist(orEmpty(field("NodeList"))),
      startedAtMs: parseSlurmTime(field("StartTime") ?? ""),
      // The raw wait status: 768 is exit 3.
      exitCode: Math.floor((Number(field("exit_code")) || 0) / 256),
    });
  }
  return jobs;
}

/** Parses `sinfo --json` (one entry per node). */
export function parseSinfo(json: string): SlurmNode[] {
  const all = (JSON.parse(json) as { nodes?: RawJob[] }).nodes ?? [];
  // A node in several partitions is listed once per partition.
  const nodes = [...new Map(all.map((node) => [text(node.name), node])).values()];
  return nodes.map((node) => ({
    name: text(node.name),
    gpus: gpuCount(text(node.gres).replace(/^gpu/, "gres:gpu")) ?? 0,
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
