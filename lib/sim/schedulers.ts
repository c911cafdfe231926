import { createAllocationScheduler } from "./allocation-scheduler";
import { createBaselineScheduler } from "./baseline-scheduler";
import { createReferenceScheduler } from "./reference-scheduler";
import type { SchedulerFactory } from "./scheduler";

/**
 * Every policy the simulator knows, by report name. A third policy is one file exporting a
 * {@link SchedulerFactory} and one line here.
 */
export const SCHEDULERS = {
  allocation: createAllocationScheduler,
  baseline: createBaselineScheduler,
  reference: createReferenceScheduler,
} satisfies Record<string, SchedulerFactory>;

/** Name of a known policy: `allocation`, `baseline` or `reference` (allocation's decisions by the reference pass). */
export type SchedulerName = keyof typeof SCHEDULERS;
