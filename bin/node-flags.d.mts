/** See bin/node-flags.mjs. */
export const SEMI_SPACE_MB: number;
export const SEMI_SPACE_FLAG: string;
export const SIMULATION_WORKER_LIMITS: { maxYoungGenerationSizeMb: number };
export function isSemiSpaceFlag(option: string): boolean;
export function restartArgs(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  script: string,
  args: readonly string[],
): string[] | null;
