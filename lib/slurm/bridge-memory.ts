// What the SLURM bridge remembers between rounds (reconcile.ts): what it released, is stopping
// and commented lately, each node's health on both sides, and jobs SLURM stopped listing. Empty
// after a restart: every round reads both sides again, so nothing depends on it for long.

export type Health = "healthy" | "draining" | "down";

/** What the bridge remembers between rounds; empty after a restart, and that is fine. */
export type BridgeMemory = {
  /**
   * SLURM job id -> the run released and when; and when a decided node was last seen still
   * being left by another job (the start's wait counts from then).
   */
  released: Map<string, { runId: string; atMs: number; leftAtMs?: number }>;
  /** SLURM job id -> the run being stopped. */
  stopping: Map<string, string>;
  /** SLURM job id -> when its comment was last written. */
  commentedAtMs: Map<string, number>;
  /** Node name -> the health last seen on each side. */
  nodes: Map<string, { slurm: Health; allot: Health }>;
  /** Node name -> starts SLURM did not make there in a row. */
  failedStarts: Map<string, number>;
  /** SLURM job id -> since when (round time) neither squeue nor sacct has shown it. */
  unseenSinceMs: Map<string, number>;
};

/**
 * How long a job Allot runs or queues must be missing from both squeue and sacct, over two
 * rounds at least, before it is ended in Allot: one empty read (slurmctld restarting) or a
 * slurmdbd behind squeue's purge of a finished job must not free GPUs that are busy, nor cancel
 * work that waits.
 */
export const UNSEEN_MS_TO_END = 60_000;

/** Memory for a bridge that has just started. */
export function createBridgeMemory(): BridgeMemory {
  return {
    released: new Map(),
    stopping: new Map(),
    commentedAtMs: new Map(),
    nodes: new Map(),
    failedStarts: new Map(),
    unseenSinceMs: new Map(),
  };
}
