// Plain sentences for live decisions: the engine's explainReason with wall-clock times.
import { explainReason, type Reason } from "../engine";
import { liveTimeFormatter } from "../format";

/** The sentence for a stored reason, times written relative to `nowSec` ("14:05"). */
export function explainLive(reason: unknown, nowSec: number): string {
  if (!reason || typeof reason !== "object" || !("rule" in reason)) return "";
  return explainReason(reason as Reason, { formatTime: liveTimeFormatter(nowSec) });
}
