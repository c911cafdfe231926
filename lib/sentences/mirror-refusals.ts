// Why a job submitted on an executor (SLURM: sbatch) is not queued in Allot, as its submitter
// reads it: lib/data/mirrored-jobs.ts decides, these say it. Pure.

/** A duration as SLURM users give --time-min: whole hours in h, else minutes. */
function formatMinutes(sec: number): string {
  return sec % 3600 === 0 ? `${sec / 3600} h` : `${Math.round(sec / 60)} min`;
}

/** @example unknownAccountRefusal("nosuch") // 'Account "nosuch" is not a budget in Allot; …' */
export function unknownAccountRefusal(account: string): string {
  return `Account "${account}" is not a budget in Allot; ask your lead which account to charge.`;
}

/** An account of a budget with children; `leafAccount` is one of its leaves' accounts. */
export function parentAccountRefusal(account: string, leafAccount: string): string {
  return `Account "${account}" has sub-budgets; charge one of its leaves (e.g. ${leafAccount}).`;
}

/** More GPUs than the cluster has. */
export function tooManyGpusRefusal(gpus: number, clusterName: string, clusterGpus: number): string {
  return `It asks for ${gpus} GPUs; ${clusterName} has ${clusterGpus}, so it could never run.`;
}

/** A size no placement can take (over one node, not whole nodes). */
export function unplaceableRefusal(gpus: number, clusterName: string, nodeGpus: number): string {
  return `${gpus} GPUs cannot be placed on ${clusterName}'s nodes of ${nodeGpus} GPUs; jobs over one node take whole nodes.`;
}

/** A minimum runtime above the cluster's maximum (seconds). */
export function minRuntimeRefusal(
  minRuntimeSec: number,
  clusterName: string,
  maxSec: number,
): string {
  return `Its minimum runtime (--time-min) of ${formatMinutes(minRuntimeSec)} is above ${clusterName}'s maximum of ${formatMinutes(maxSec)}; resubmit with a shorter one.`;
}
