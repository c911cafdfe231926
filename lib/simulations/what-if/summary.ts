// What a what-if stores and its pages read (types only: client components import them).
import type { WhatIfRow } from "./compare";
import type { DemandStats } from "./demand-scenario";

/**
 * The period and clusters of a what-if, and whether the current split is replayed too (a
 * control), as stored in its simulation's options. Runs stored before the control was optional
 * have no `hasControl`: they replayed it.
 */
export type WhatIfOptions = { from: string; to: string; clusters: string[]; hasControl?: boolean };

/** Headline figures of one replay, all clusters of the run. */
export type ReplayHeadline = {
  utilisation: number;
  /** Null when no budget was owed anything in the period (docs/fulfilment.md). */
  fulfilment: number | null;
  unallocatedShare: number;
  preemptions: number;
};

/** The result of a what-if: per budget of the branch, what happened and the replays. */
export type WhatIfSummary = {
  kind: "what-if";
  nodeId: string;
  nodeName: string;
  from: string;
  to: string;
  clusters: string[];
  /**
   * Where "what happened" comes from: the hourly roll-ups, or (none for the period) nothing,
   * and the page says the replay under the current split stands in for it.
   */
  happenedSource: "roll-ups" | "none";
  stats: DemandStats;
  /** Job classes seen, in column order. */
  classes: string[];
  rows: WhatIfRow[];
  /** The control replay (current split); null when it was not asked for. */
  current: ReplayHeadline | null;
  draft: ReplayHeadline;
  /** Seconds spent reading the demand, and simulating the replays. */
  timings: { loadSec: number; simulateSec: number };
};
