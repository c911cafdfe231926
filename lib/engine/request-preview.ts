import { placementShape } from "./placement";

function count(value: number, one: string, many: string): string {
  return `${value.toLocaleString("en-US")} ${value === 1 ? one : many}`;
}

/**
 * How a job of `gpus` GPUs lands on nodes of `nodeSizeGpus` GPUs, in words (ADR 010: at most a
 * node goes on one node; more takes whole nodes at once plus the rest on one more node).
 *
 * @example describePlacement(12, 8)
 * // "1 whole node (8 GPUs) plus 4 GPUs on another node: 2 nodes, started together"
 */
export function describePlacement(gpus: number, nodeSizeGpus: number): string {
  if (nodeSizeGpus <= 0) return count(gpus, "GPU", "GPUs");
  const shape = placementShape(gpus, nodeSizeGpus);
  if (shape.wholeNodes === 0) {
    return gpus === nodeSizeGpus
      ? `one whole node (${count(gpus, "GPU", "GPUs")})`
      : `${count(gpus, "GPU", "GPUs")} on one node of ${nodeSizeGpus}`;
  }
  const whole =
    `${count(shape.wholeNodes, "whole node", "whole nodes")} ` +
    `(${count(shape.wholeNodes * nodeSizeGpus, "GPU", "GPUs")})`;
  if (shape.remainderGpus === 0) return `${whole}, started together`;
  return (
    `${whole} plus ${count(shape.remainderGpus, "GPU", "GPUs")} on another node: ` +
    `${shape.wholeNodes + 1} nodes, started together`
  );
}

/**
 * A length of time to the second, with nothing rounded away: "30 min 30 s", "2 h", "1 h 5 min".
 *
 * @example formatExactDuration(1830) // "30 min 30 s"
 */
export function formatExactDuration(sec: number): string {
  const parts: string[] = [];
  const days = Math.floor(sec / 86400);
  const hours = Math.floor((sec % 86400) / 3600);
  const minutes = Math.floor((sec % 3600) / 60);
  const seconds = sec % 60;
  if (days > 0) parts.push(`${days} d`);
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes > 0) parts.push(`${minutes} min`);
  if (seconds > 0 || parts.length === 0) parts.push(`${seconds} s`);
  return parts.join(" ");
}

export type MinutesReading =
  { ok: true; sec: number } | { ok: false; sec: number | null; message: string };

/**
 * Minutes typed in a form, as the whole seconds the scheduler stores: never rounded, so a value
 * that is not whole seconds is refused with what it would be (as the API refuses it).
 *
 * @example readMinutes("30.5") // { ok: true, sec: 1830 }
 * @example readMinutes("30.51").ok // false: 1,830.6 s
 */
export function readMinutes(text: string): MinutesReading {
  const trimmed = text.trim();
  const minutes = Number(trimmed);
  if (trimmed === "") {
    return {
      ok: false,
      sec: null,
      message: "Minimum runtime is required: enter a number of minutes (0 for unallocated work).",
    };
  }
  if (!Number.isFinite(minutes)) {
    return { ok: false, sec: null, message: "Minimum runtime must be a number of minutes." };
  }
  if (minutes < 0) {
    return {
      ok: false,
      sec: null,
      message: "Minimum runtime cannot be negative: enter 0 minutes or more.",
    };
  }
  const sec = minutes * 60;
  const whole = Math.round(sec);
  // 0.1 min is 6.000000000000001 s in binary floating point: that is still 6 s.
  if (Math.abs(sec - whole) < 1e-6) return { ok: true, sec: whole };
  return {
    ok: false,
    sec: Number(sec.toFixed(3)),
    message:
      `Minimum runtime must be whole seconds: ${trimmed} min is ` +
      `${Number(sec.toFixed(3)).toLocaleString("en-US")} s. ` +
      `The nearest whole seconds are ${Math.floor(sec).toLocaleString("en-US")} s and ` +
      `${Math.ceil(sec).toLocaleString("en-US")} s.`,
  };
}

/**
 * What is wrong with the minimum runtime typed in the job form, in the minutes it was typed in
 * (the API's messages count seconds): empty, not a number, negative, not whole seconds, or above
 * the cluster's maximum. Null when the scheduler takes it.
 *
 * @example minRuntimeProblem("600", { name: "h100", maxMinRuntimeSec: 28_800 })
 * // "Minimum runtime is at most 480 minutes on h100 (8 h)."
 */
export function minRuntimeProblem(
  text: string,
  cluster?: { name: string; maxMinRuntimeSec: number },
): string | null {
  const reading = readMinutes(text);
  if (!reading.ok) return reading.message;
  if (cluster && reading.sec > cluster.maxMinRuntimeSec) {
    const maxMinutes = (cluster.maxMinRuntimeSec / 60).toLocaleString("en-US");
    return (
      `Minimum runtime is at most ${maxMinutes} minutes on ${cluster.name} ` +
      `(${formatExactDuration(cluster.maxMinRuntimeSec)}).`
    );
  }
  return null;
}
