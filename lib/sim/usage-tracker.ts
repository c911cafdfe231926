/**
 * Incremental usage window for one cluster: per leaf budget, the allocated GPU-seconds charged
 * within [now - W, now], running runs included up to now (docs/ranking.md).
 *
 * Each leaf keeps its cumulative charge A(t) as a piecewise-linear function (a breakpoint at
 * every change of its running allocated GPUs), so usage = A(now) - A(now - W) costs O(1)
 * amortised per query instead of a rescan of every run. Time must never go back.
 *
 * @example
 * const usage = createUsageTracker(7 * 86_400);
 * usage.addRate("llm/pretrain", 16, 0); // 16 allocated GPUs start at t = 0
 * usage.usageAt("llm/pretrain", 3600); // 57_600 GPU-seconds
 */
export type UsageTracker = {
  /** Changes the leaf's running allocated GPUs by `deltaGpus` at `atSec`. */
  addRate(leafId: string, deltaGpus: number, atSec: number): void;
  /** Allocated GPU-seconds of the leaf in [atSec - W, atSec]. */
  usageAt(leafId: string, atSec: number): number;
  /**
   * `usageAt` of the leaf named at each index of `leafIds`, written to the same index of `into`
   * (indices without a name are left alone). For one caller asking of the same array again and
   * again (the allocation scheduler, every pass): its leaves are looked up once, not per call.
   */
  usagesAt(leafIds: readonly (string | null)[], atSec: number, into: Float64Array): void;
  /** Usage of every leaf that ever ran (a null-prototype record; absent means 0). */
  snapshot(atSec: number): Record<string, number>;
};

type Curve = {
  /** Breakpoint times (s), cumulative GPU-seconds there, and the slope (GPUs) after each. */
  times: number[];
  cumulative: number[];
  slopes: number[];
  /** First breakpoint that can still matter for [now - W, now]. */
  head: number;
};

const COMPACT_AFTER = 4096;

function valueAt(curve: Curve, index: number, atSec: number): number {
  const t = curve.times[index] ?? 0;
  return (curve.cumulative[index] ?? 0) + (curve.slopes[index] ?? 0) * (atSec - t);
}

/** Creates a tracker for a window of `lookbackSec` seconds. */
export function createUsageTracker(lookbackSec: number): UsageTracker {
  const curves = new Map<string, Curve>();
  let lastQuerySec = -Infinity;

  function cumulativeAt(curve: Curve, atSec: number, isWindowStart: boolean): number {
    const last = curve.times.length - 1;
    if (isWindowStart) {
      if (atSec < (curve.times[0] ?? 0)) return 0;
      while (curve.head < last && (curve.times[curve.head + 1] ?? Infinity) <= atSec) curve.head++;
      if (curve.head > COMPACT_AFTER && curve.head * 2 > curve.times.length) {
        curve.times.splice(0, curve.head);
        curve.cumulative.splice(0, curve.head);
        curve.slopes.splice(0, curve.head);
        curve.head = 0;
      }
      return valueAt(curve, curve.head, atSec);
    }
    return valueAt(curve, last, atSec);
  }

  function checkTime(atSec: number): void {
    if (atSec < lastQuerySec) throw new Error(`usage queried at ${atSec}s after ${lastQuerySec}s`);
    lastQuerySec = atSec;
  }

  function usageOfCurve(curve: Curve, atSec: number): number {
    const usage =
      cumulativeAt(curve, atSec, false) - cumulativeAt(curve, atSec - lookbackSec, true);
    return usage > 0 ? usage : 0;
  }

  function usageAt(leafId: string, atSec: number): number {
    checkTime(atSec);
    const curve = curves.get(leafId);
    return curve ? usageOfCurve(curve, atSec) : 0;
  }

  // The leaves `usagesAt` was last asked of, and their curves as far as they exist (a leaf gets
  // its curve when it first runs, and keeps that object).
  let namesSeen: readonly (string | null)[] | null = null;
  let curvesSeen: (Curve | undefined)[] = [];

  function usagesAt(leafIds: readonly (string | null)[], atSec: number, into: Float64Array): void {
    checkTime(atSec);
    if (leafIds !== namesSeen) {
      namesSeen = leafIds;
      curvesSeen = [];
    }
    for (let index = 0; index < leafIds.length; index += 1) {
      const leafId = leafIds[index];
      if (leafId === null || leafId === undefined) continue;
      const curve = (curvesSeen[index] ??= curves.get(leafId));
      into[index] = curve ? usageOfCurve(curve, atSec) : 0;
    }
  }

  return {
    addRate(leafId, deltaGpus, atSec) {
      const curve = curves.get(leafId);
      if (!curve) {
        curves.set(leafId, { times: [atSec], cumulative: [0], slopes: [deltaGpus], head: 0 });
        return;
      }
      const last = curve.times.length - 1;
      if (curve.times[last] === atSec) {
        curve.slopes[last] = (curve.slopes[last] ?? 0) + deltaGpus;
        return;
      }
      curve.cumulative.push(valueAt(curve, last, atSec));
      curve.times.push(atSec);
      curve.slopes.push((curve.slopes[last] ?? 0) + deltaGpus);
    },
    usageAt,
    usagesAt,
    snapshot(atSec) {
      const out = Object.create(null) as Record<string, number>;
      for (const leafId of curves.keys()) {
        const usage = usageAt(leafId, atSec);
        if (usage > 0) out[leafId] = usage;
      }
      return out;
    },
  };
}
