// Day limits of generated workloads, apart from the schemas so that the browser's form and the
// CLI read them without zod or the simulator.

/**
 * Most days a browser simulation generates, or replays of the trace (the whole Philly trace is
 * 109 days). It runs on the shared server beside other people's, and a lab's run time and memory
 * grow with its days; `allot generate` on one's own machine goes to {@link MAX_GENERATE_DAYS}.
 */
export const MAX_SIMULATION_DAYS = 120;
/** Most days `allot generate --days` takes: a year, leap or not. */
export const MAX_GENERATE_DAYS = 366;
