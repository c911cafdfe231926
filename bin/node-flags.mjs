// Node's flags for processes and threads that simulate (ADR 021). A replay allocates about 14 kB
// per scheduling pass, most of it dead by the next, so V8's young generation fills every few
// milliseconds; at its default semi-space of 16 MB the synthetic year spent 25 s of its 122 s in
// 3,246 scavenges. At 128 MB it spends 10.5 s in 417.

/** The semi-space of V8's young generation for a simulation, in MB (Node's default: 16). */
export const SEMI_SPACE_MB = 128;

/** The flag that sets it in a process: given to `node` before the script. */
export const SEMI_SPACE_FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/**
 * The same for a worker thread (`new Worker(file, { resourceLimits })`): Node sizes a thread's
 * young generation as a whole, which V8 splits into two semi-spaces and as much again for large
 * new objects.
 */
export const SIMULATION_WORKER_LIMITS = { maxYoungGenerationSizeMb: 3 * SEMI_SPACE_MB };

/**
 * The arguments to start this Node again with the simulation's young generation, before
 * `script` and its `args`; null when `execArgv` (`process.execArgv`) already sets a semi-space,
 * whatever its size.
 *
 * @example restartArgs([], "/repo/bin/allot.mjs", ["simulate", "lab.json"])
 * // ["--max-semi-space-size=128", "/repo/bin/allot.mjs", "simulate", "lab.json"]
 */
export function restartArgs(execArgv, script, args) {
  if (execArgv.some((arg) => arg.startsWith("--max-semi-space-size"))) return null;
  return [SEMI_SPACE_FLAG, ...execArgv, script, ...args];
}
