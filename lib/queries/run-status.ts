// What the simulation and what-if queries share: a run polls while it is queued or running.

/** How often a queued or running run is asked for, in milliseconds (a list: twice this). */
export const RUN_POLL_MS = 1000;

export function isRunActive(status: string | undefined): boolean {
  return status === "queued" || status === "running";
}
