/**
 * The simulator's public surface (the only barrel of lib/sim): scenarios, the event-driven
 * simulator, the two schedulers, reports, timelines and trace importers (the demo lab's
 * workload is lib/demo/lab-workload.ts). Pure TypeScript: no I/O, no clock, no Math.random.
 * See docs/simulator.md.
 */
export {
  formatDurationSec,
  formatHumanDuration,
  MAX_DURATION_SEC,
  parseDurationSec,
  type DurationInput,
} from "./duration";
export { createRandom, type Random } from "./random";
export {
  DEFAULT_LOOKBACK_SEC,
  DEFAULT_MAX_MIN_RUNTIME_SEC,
  classifyJob,
  parseScenario,
  type Scenario,
  type ScenarioResult,
  type SimCluster,
  type SimJob,
  type SimNodeEvent,
} from "./scenario";
export { formatIssuePath, type ScenarioIssue } from "./scenario-issues";
export { flattenTree, ROOT_ID } from "./scenario-tree";
export type { RawTreeNode, ScenarioFile, ScenarioFileJob } from "./scenario-schema";
export {
  createEventQueue,
  EVENT_ORDER,
  type EventKind,
  type EventQueue,
  type SimEvent,
} from "./event-queue";
export { createUsageTracker, type UsageTracker } from "./usage-tracker";
export type {
  PreemptDecision,
  Scheduler,
  SchedulerFactory,
  SchedulerPlan,
  SchedulerView,
  StartDecision,
} from "./scheduler";
export { createBaselineScheduler, type BaselinePreemptReason } from "./baseline-scheduler";
export { createAllocationScheduler, RERANK_INTERVAL_SEC } from "./allocation-scheduler";
export { simulateCluster, type ClusterSimOptions, type ClusterSimResult } from "./cluster-sim";
export {
  mergeClusterOutcomes,
  runSimulation,
  simulateClusters,
  type ClusterOutcome,
  type SimulationOptions,
} from "./simulate";
export type * from "./sim-types";
export type * from "./report-types";
export { buildReport } from "./metrics";
export { buildTimeline, type Timeline, type TimelineSegment } from "./timeline";
export {
  convertPhillyTrace,
  parsePhillyCsv,
  PHILLY_MIN_RUNTIME_CAP_SEC,
  type PhillyOptions,
  type PhillyRow,
  type PhillyWeights,
} from "./traces/philly";
export { SCHEDULERS, type SchedulerName } from "./schedulers";
