// Plain sentences for live decisions: the engine's explainReason with wall-clock times, the one
// short summary that leads it, and a waiting job's start estimate.
import {
  estimateStart,
  explainReason,
  summarizeReason,
  type Reason,
  type SummaryOptions,
  type WaitReason,
} from "../engine";
import { liveTimeFormatter } from "../format";

function isReason(reason: unknown): reason is Reason {
  return !!reason && typeof reason === "object" && "rule" in reason;
}

/** The sentence for a stored reason, times written relative to `nowSec` ("14:05"). */
export function explainLive(reason: unknown, nowSec: number): string {
  if (!isReason(reason)) return "";
  return explainReason(reason, { formatTime: liveTimeFormatter(nowSec) });
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
export function estimateLiveStart(reason: unknown, nowSec: number): LiveStartEstimate {
  if (!isReason(reason) || !WAIT_RULES.has(reason.rule)) {
    return { expectedStartAt: null, startNote: null };
  }
  const estimate = estimateStart(reason as WaitReason, liveTimeFormatter(nowSec));
  return {
    expectedStartAt:
      estimate.expectedStartSec === null
        ? null
        : new Date(estimate.expectedStartSec * 1000).toISOString(),
    startNote: estimate.note,
  };
}
