import { createAllocationScheduler } from "./allocation-scheduler";
import { createBaselineScheduler } from "./baseline-scheduler";
import type { SchedulerFactory } from "./scheduler";

/**
 * Every policy the simulator knows, by report name. A third policy is one file exporting a
 * {@link SchedulerFactory} and one line here.
 */
export const SCHEDULERS = {
  allocation: createAllocationScheduler,
  baseline: createBaselineScheduler,
} satisfies Record<string, SchedulerFactory>;

/** Name of a known policy: `allocation` or `baseline`. */
export type SchedulerName = keyof typeof SCHEDULERS;
