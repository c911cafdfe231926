// Builders shared by the bridge's unit tests: a SLURM job as squeue reads it and Allot's plan,
// each with plain defaults that a test overrides field by field.
import type { Plan } from "../data/executor";
import type { SlurmJob } from "./slurm-read";

/** The moment the tests' plans are read at (ms since the epoch). */
export const NOW = 1_800_000_000_000;

/** A pending, held job of 8 GPUs on one node, with no comment and no --time-min. */
export function slurmJob(id: string, extra: Partial<SlurmJob> = {}): SlurmJob {
  return {
    id,
    account: "language.lm-pretrain",
    user: "riley",
    name: `job ${id}`,
    state: "PENDING",
    reason: "JobHeldUser",
    priority: 0,
    gpus: 8,
    nodeCount: 1,
    gpusPerNode: 8,
    minRuntimeSec: null,
    isRequeueable: true,
    nice: 0,
    comment: "",
    nodes: [],
    startedAtMs: null,
    exitCode: 0,
    ...extra,
  };
}

/** A plan of cluster "c" at NOW with nothing to do, on healthy 8-GPU nodes named `hostnames`. */
export function planOf(
  extra: Partial<Plan> = {},
  hostnames: readonly string[] = ["n1", "n2"],
): Plan {
  return {
    cluster: "c",
    at: new Date(NOW).toISOString(),
    atSec: NOW / 1000,
    nodes: hostnames.map((hostname, index) => ({ index, hostname, gpus: 8, health: "healthy" })),
    starts: [],
    preemptions: [],
    running: [],
    waiting: [],
    cancelled: [],
    ...extra,
  };
}
