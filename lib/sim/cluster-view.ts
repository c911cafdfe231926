import type { ActiveRun, BudgetNode, ClusterSpec, PendingJob } from "../engine/types";
import type { SchedulerView } from "./scheduler";

/** Where a view gets the lists it builds on first read. */
export type ViewSources = {
  listPending(): PendingJob[];
  listRunning(): ActiveRun[];
  snapshotUsage(atSec: number): Record<string, number>;
  usageAt(leafId: string, atSec: number): number;
  usagesAt(leafIds: readonly (string | null)[], atSec: number, into: Float64Array): void;
};

/** What every view of a cluster shares: the simulator's own objects, updated in place. */
export type ViewFixed = Pick<SchedulerView, "cluster" | "tree" | "freeGpus">;

/** What changed since the previous view. */
export type ViewDeltas = Pick<SchedulerView, "newlyPending" | "runsStarted" | "runsEnded">;

/**
 * One pass's view. The lists a policy that keeps its own state never reads (`pending`,
 * `running`, `usageByLeaf`) are built on first read. A class, so that those getters sit on the
 * prototype: an object literal with getters takes V8's slow path, and a view is made per pass.
 */
class LazyView implements SchedulerView {
  readonly nowSec: number;
  readonly cluster: ClusterSpec;
  readonly tree: readonly BudgetNode[];
  readonly freeGpus: readonly number[];
  readonly usableFreeGpus: number;
  readonly newlyPending: readonly PendingJob[];
  readonly runsStarted: readonly ActiveRun[];
  readonly runsEnded: readonly ActiveRun[];
  private readonly sources: ViewSources;
  private pendingList: PendingJob[] | null = null;
  private runningList: ActiveRun[] | null = null;
  private usageSnapshot: Record<string, number> | null = null;

  constructor(
    nowSec: number,
    fixed: ViewFixed,
    deltas: ViewDeltas,
    usableFreeGpus: number,
    sources: ViewSources,
  ) {
    this.nowSec = nowSec;
    this.cluster = fixed.cluster;
    this.tree = fixed.tree;
    this.freeGpus = fixed.freeGpus;
    this.usableFreeGpus = usableFreeGpus;
    this.newlyPending = deltas.newlyPending;
    this.runsStarted = deltas.runsStarted;
    this.runsEnded = deltas.runsEnded;
    this.sources = sources;
  }

  get pending(): readonly PendingJob[] {
    return (this.pendingList ??= this.sources.listPending());
  }

  get running(): readonly ActiveRun[] {
    return (this.runningList ??= this.sources.listRunning());
  }

  get usageByLeaf(): Readonly<Record<string, number>> {
    return (this.usageSnapshot ??= this.sources.snapshotUsage(this.nowSec));
  }

  usageOf(leafId: string): number {
    return this.usageSnapshot
      ? (this.usageSnapshot[leafId] ?? 0)
      : this.sources.usageAt(leafId, this.nowSec);
  }

  usagesOf(leafIds: readonly (string | null)[], into: Float64Array): void {
    const snapshot = this.usageSnapshot;
    if (!snapshot) {
      this.sources.usagesAt(leafIds, this.nowSec, into);
      return;
    }
    for (let index = 0; index < leafIds.length; index += 1) {
      const leafId = leafIds[index];
      if (leafId !== null && leafId !== undefined) into[index] = snapshot[leafId] ?? 0;
    }
  }
}

/**
 * A scheduler's view of one cluster at `nowSec`: the fixed parts, this pass's deltas and the free
 * GPUs of healthy nodes as given; `pending`, `running` and `usageByLeaf` built from `sources` on
 * first read, then kept.
 *
 * @example createLazyView(60, fixed, { newlyPending: [], runsStarted: [], runsEnded: [] }, 8, sources).pending
 */
export function createLazyView(
  nowSec: number,
  fixed: ViewFixed,
  deltas: ViewDeltas,
  usableFreeGpus: number,
  sources: ViewSources,
): SchedulerView {
  return new LazyView(nowSec, fixed, deltas, usableFreeGpus, sources);
}
