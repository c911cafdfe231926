// Plain sentences for live decisions: the engine's explainReason with wall-clock times, the one
// short summary that leads it, and a waiting job's start estimate.
import {
  estimateStart,
  explainReason,
  summarizeReason,
  type NodeNamer,
  type Reason,
  type SummaryOptions,
  type WaitReason,
} from "../engine";
import { liveTimeFormatter } from "../format";

function isReason(reason: unknown): reason is Reason {
  return !!reason && typeof reason === "object" && "rule" in reason;
}

/**
 * The sentence for a stored reason, times written relative to `nowSec` ("14:05"), nodes by
 * `nodeName` when given (a SLURM cluster's names, nodeNamerOf).
 */
export function explainLive(reason: unknown, nowSec: number, nodeName?: NodeNamer): string {
  if (!isReason(reason)) return "";
  return explainReason(reason, { formatTime: liveTimeFormatter(nowSec), nodeName });
}

/**
 * Names nodes by the executor's hostnames (SLURM's NodeName) when every node has one, so
 * sentences read as squeue does; undefined for a demo cluster (nodes by index).
 */
export function nodeNamerOf(
  nodes: readonly { index: number; hostname: string | null }[],
): NodeNamer | undefined {
  if (nodes.length === 0 || nodes.some((node) => !node.hostname)) return undefined;
  const names = new Map(nodes.map((node) => [node.index, node.hostname]));
  return (index) => names.get(index);
}

/** The short plain sentence that leads `explainLive`'s (rank "of N", jobs ahead when known). */
export function summarizeLive(
  reason: unknown,
  nowSec: number,
  context: Omit<SummaryOptions, "formatTime"> = {},
): string {
  if (!isReason(reason)) return "";
  return summarizeReason(reason, { ...context, formatTime: liveTimeFormatter(nowSec) });
}

export type LiveStartEstimate = {
  /** ISO 8601 instant by which the job is expected to start, when a bound is known. */
  expectedStartAt: string | null;
  /** What would have to change, when no time bound is known. */
  startNote: string | null;
};

const WAIT_RULES = new Set([
  "wait-resources",
  "wait-reservation",
  "wait-unallocated",
  "error-invalid-job",
  "error-larger-than-cluster",
]);

/** A pending job's start estimate from its stored wait reason; both null before any pass. */
export function estimateLiveStart(
  reason: unknown,
  nowSec: number,
  nodeName?: NodeNamer,
): LiveStartEstimate {
  if (!isReason(reason) || !WAIT_RULES.has(reason.rule)) {
    return { expectedStartAt: null, startNote: null };
  }
  const estimate = estimateStart(reason as WaitReason, liveTimeFormatter(nowSec), nodeName);
  return {
    expectedStartAt:
      estimate.expectedStartSec === null
        ? null
        : new Date(estimate.expectedStartSec * 1000).toISOString(),
    startNote: estimate.note,
  };
}

/** The executor's names of `nodes`, in their order, when `nodeName` names them all; else null. */
export function hostsOf(
  nodes: readonly number[],
  nodeName: NodeNamer | undefined,
): string[] | null {
  if (!nodeName) return null;
  const names = nodes.map((index) => nodeName(index));
  return names.every((name) => name) ? (names as string[]) : null;
}
