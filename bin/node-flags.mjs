// Node's flags for processes and threads that simulate (ADR 021). A replay allocates about 14 kB
// per scheduling pass, most of it dead by the next, so V8's young generation fills every few
// milliseconds; with its default semi-spaces of 16 MB the synthetic year spent a fifth of its
// time in 3,229-3,256 scavenges. With 64 MB it spends about a tenth of it in 810-819.

/** The size of each semi-space of V8's young generation for a simulation, in MB (default 16). */
export const SEMI_SPACE_MB = 64;

/** The flag that sets it in a process: given to `node` before the script. */
export const SEMI_SPACE_FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/**
 * The same for a worker thread (`new Worker(file, { resourceLimits })`), which is given its young
 * generation as a whole: V8 counts two semi-spaces and one more of their size for large new
 * objects. A process's own flag, when given, sizes its threads instead.
 */
export const SIMULATION_WORKER_LIMITS = { maxYoungGenerationSizeMb: 3 * SEMI_SPACE_MB };

/** Whether a Node option sets the semi-space (V8 takes dashes or underscores). */
export function isSemiSpaceFlag(option) {
  return /^--max[-_]semi[-_]space[-_]size\b/.test(option);
}

/**
 * The arguments to start this Node again with the simulation's semi-spaces, before `script` and
 * its `args`; null when the process was started with a semi-space of its own, on its command
 * line (`execArgv`, `process.execArgv`) or in `nodeOptions` (`NODE_OPTIONS`, which `execArgv`
 * does not show).
 *
 * @example restartArgs([], undefined, "/repo/bin/allot.mjs", ["simulate", "lab.json"])
 * // ["--max-semi-space-size=64", "/repo/bin/allot.mjs", "simulate", "lab.json"]
 */
export function restartArgs(execArgv, nodeOptions, script, args) {
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)];
  if (given.some(isSemiSpaceFlag)) return null;
  return [SEMI_SPACE_FLAG, ...execArgv, script, ...args];
}
