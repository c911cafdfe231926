/**
 * The scheduling engine's public surface (the only barrel of lib/engine). Pure TypeScript: no
 * I/O, no clock (time is `nowSec`), no framework. See docs/concepts.md, docs/contract.md, docs/ranking.md, docs/fulfilment.md and ADRs 002, 010.
 */
export type * from "./types";
export type * from "./reasons";

export {
  HOURS_PER_WEEK,
  MIN_NONZERO_WEIGHT,
  checkChargeableBudget,
  findBudgetByPath,
  getBudgetNode,
  isWeightTooSmall,
  validateBudgetTree,
  weeklyGpuHours,
} from "./budget-tree";
export { applyChildrenEdit, type ChildEdit, type ChildrenEditResult } from "./budget-edit";
export {
  DEFAULT_LOOKBACK_SEC,
  DEFAULT_USAGE_MODE,
  computeLeafUsage,
  rollUpUsage,
  runUsageGpuSeconds,
  usageRatio,
  usageWindowSec,
} from "./usage-window";
export {
  orderLikeFairTree,
  type WalkedRow,
  createFairTreeRanker,
  type FairTreeRanker,
  rankBudgets,
} from "./fair-tree";
export {
  fairShareFactor,
  levelFairShare,
  type FairTreeRanking,
  type FairTreeRow,
  type RankingOptions,
} from "./fair-tree-ranking";
export { findParting } from "./budget-refs";
export {
  DEFAULT_MAX_MIN_RUNTIME_SEC,
  isAllocatedRun,
  isProtected,
  preemptionOutcome,
  protectedUntilSec,
  validateContract,
  type JobContract,
  type PreemptionOutcome,
} from "./contract";
export { orderQueue, type QueueEntry } from "./queue-order";
export {
  canEverPlace,
  createGpuPool,
  freeGpuBounds,
  mayPlaceWithin,
  placeJob,
  placementShape,
  type FreeGpuBounds,
  type GpuPool,
  type PlacementShape,
} from "./placement";
export { compareVictims } from "./preemption";
export {
  createIncrementalScheduler,
  type IncrementalOptions,
  type IncrementalPassInput,
  type IncrementalScheduler,
  type PassSkip,
  type SkipCheck,
} from "./incremental-scheduler";
export { runSchedulePass } from "./schedule-pass";
export { isShortJob, SHORT_MAX_RUNTIME_SEC } from "./short-jobs";
export type { SchedulePassInput, SchedulePassResult } from "./pass-types";
export { runReferencePass, type ReferencePassInput } from "./reference-pass";
export { explainReason, type ExplainOptions } from "./explain";
export { formatHostList, formatNodeList, formatNodes, type NodeNamer } from "./node-list";
export { describePlacement, formatExactDuration, readMinutes } from "./request-preview";
export { formatOrdinal, summarizeReason, type SummaryOptions } from "./explain-summary";
export { estimateStart, START_ESTIMATE_CONDITIONS, type StartEstimate } from "./start-estimate";
export { formatDuration, formatOffset, formatUtcClock, type TimeFormatter } from "./format-time";
export { splitGpus, type GpuSplit, type SplitNode, type SplitRun } from "./gpu-split";
export {
  computeFulfilment,
  computeHourlyFulfilment,
  computeHourEntitlement,
  computeWorkConservingEntitlement,
  isAllocationDemand,
  overlapGpuHours,
  type HourEntitlement,
  type HourFlows,
  type PeriodFlows,
} from "./entitlement";
