// A job as `allot why` and `allot cancel` take it: Allot's id, or SLURM's job id (what sbatch
// printed, and what `allot squeue` shows for a job submitted with sbatch).
import { jobEnvelopeAnswer, type JobAnswer } from "./api-answers";
import type { ApiClient } from "./api-client";
import { ApiRequestError } from "./api-errors";
import { UsageError } from "./io";
import { clusterNames, jobPath } from "./live-command";

/** SLURM's job ids are numbers; Allot's ids are cuids, which start with a letter. */
const SLURM_JOB_ID = /^\d+$/;

/** The path of a job by its executor's id on a cluster. */
function clusterJobPath(cluster: string, externalId: string): string {
  return `/api/v1/clusters/${encodeURIComponent(cluster)}/jobs/${encodeURIComponent(externalId)}`;
}

async function findOnCluster(
  client: ApiClient,
  cluster: string,
  externalId: string,
): Promise<JobAnswer | null> {
  try {
    return (await client.get(clusterJobPath(cluster, externalId), jobEnvelopeAnswer)).job;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The job SLURM knows as `slurmJobId`, on `--cluster` or else on every cluster: none having it
 * is the server's 404 (exit 1), several having it a usage error asking for --cluster.
 */
async function findSlurmJob(
  client: ApiClient,
  command: string,
  slurmJobId: string,
  clusterFlag: unknown,
): Promise<JobAnswer> {
  if (typeof clusterFlag === "string") {
    return (await client.get(clusterJobPath(clusterFlag, slurmJobId), jobEnvelopeAnswer)).job;
  }
  const clusters = await clusterNames(client, undefined);
  const found: JobAnswer[] = [];
  for (const cluster of clusters) {
    const job = await findOnCluster(client, cluster, slurmJobId);
    if (job) found.push(job);
  }
  if (found.length === 0) {
    throw new ApiRequestError(
      404,
      "not_found",
      `No job has SLURM job id ${slurmJobId} on ${clusters.join(", ") || "any cluster"}.`,
    );
  }
  if (found.length > 1) {
    const where = found.map((job) => job.cluster).join(" and ");
    throw new UsageError(
      `${command}: SLURM job id ${slurmJobId} names jobs on ${where}; say which with --cluster <name>`,
    );
  }
  return found[0]!;
}

/** The job `arg` names: Allot's id, or a SLURM job id (see findSlurmJob). */
export async function getJobByArg(
  client: ApiClient,
  command: string,
  arg: string,
  clusterFlag: unknown,
): Promise<JobAnswer> {
  return SLURM_JOB_ID.test(arg)
    ? findSlurmJob(client, command, arg, clusterFlag)
    : (await client.get(jobPath(arg), jobEnvelopeAnswer)).job;
}

/** Allot's id of the job `arg` names, asking the server only for a SLURM job id. */
export async function jobIdOfArg(
  client: ApiClient,
  command: string,
  arg: string,
  clusterFlag: unknown,
): Promise<string> {
  return SLURM_JOB_ID.test(arg) ? (await findSlurmJob(client, command, arg, clusterFlag)).id : arg;
}
