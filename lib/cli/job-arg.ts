// A job as `allot why` and `allot cancel` take it: Allot's id, or SLURM's job id (what sbatch
// printed, and what `allot squeue` shows for a job submitted with sbatch).
import { jobEnvelopeAnswer, type JobAnswer } from "./api-answers";
import type { ApiClient } from "./api-client";
import { ApiRequestError } from "./api-errors";
import { InputError, UsageError } from "./io";
import { clusterNames, jobPath } from "./live-command";

/** SLURM's job ids are numbers; Allot's ids are cuids, which start with a letter. */
const SLURM_JOB_ID = /^\d+$/;

/** An element of a job array ("812_3") or of a heterogeneous job ("812+1"), as squeue shows it. */
const SLURM_ELEMENT_ID = /^\d+[_+]\d+$/;

/** What any job id is made of: "", "." or ".." would name another route of the API. */
const JOB_ID = /^[A-Za-z0-9_+-]+$/;

/** A usage error, before any call, for an argument that cannot be a job id. */
function assertJobIdShape(command: string, arg: string): void {
  if (JOB_ID.test(arg)) return;
  throw new UsageError(
    `${command}: ${JSON.stringify(arg)} is not a job id: give Allot's id (as allot squeue shows it) or SLURM's job id`,
  );
}

/** The path of a job by its executor's id on a cluster. */
function clusterJobPath(cluster: string, externalId: string): string {
  return `/api/v1/clusters/${encodeURIComponent(cluster)}/jobs/${encodeURIComponent(externalId)}`;
}

/** The job on one cluster, or null when the cluster has none of that id. */
async function findOnCluster(
  client: ApiClient,
  cluster: string,
  externalId: string,
): Promise<JobAnswer | null> {
  try {
    return (await client.get(clusterJobPath(cluster, externalId), jobEnvelopeAnswer)).job;
  } catch (error) {
    if (!(error instanceof ApiRequestError) || error.status !== 404) throw error;
    // A server from before SLURM ids were looked up has no such route (proxy.ts says so).
    if (error.message.startsWith("No API route")) {
      throw new ApiRequestError(
        404,
        "not_found",
        "this server does not look jobs up by SLURM job id (it is older than this allot); give Allot's id, as allot squeue shows it",
      );
    }
    return null;
  }
}

/**
 * The job SLURM knows as `slurmJobId`, on `--cluster` or else on every cluster: none having it
 * is exit 1, several having it a usage error asking for --cluster.
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
  const answers = await Promise.all(
    clusters.map((cluster) => findOnCluster(client, cluster, slurmJobId)),
  );
  const found = answers.filter((job) => job !== null);
  if (found.length === 0) {
    throw new InputError(
      `no job has SLURM job id ${slurmJobId} on ${clusters.join(", ") || "any cluster"}`,
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

/** A usage error for an array or heterogeneous job's element id, saying which id to give. */
function refuseElementId(command: string, arg: string): never {
  throw new UsageError(
    `${command}: ${arg} names an element of a SLURM job array or heterogeneous job; Allot knows each element by its own job id, which squeue -o %A shows`,
  );
}

/** The job of Allot's id `jobId`; with `--cluster`, not found (exit 1) when it is on another. */
async function getAllotJob(
  client: ApiClient,
  jobId: string,
  clusterFlag: unknown,
): Promise<JobAnswer> {
  const { job } = await client.get(jobPath(jobId), jobEnvelopeAnswer);
  if (typeof clusterFlag === "string" && job.cluster !== clusterFlag) {
    throw new InputError(`job ${jobId} is on ${job.cluster}, not on ${clusterFlag}`);
  }
  return job;
}

/** The job `arg` names: Allot's id, or a SLURM job id (see findSlurmJob). */
export async function getJobByArg(
  client: ApiClient,
  command: string,
  arg: string,
  clusterFlag: unknown,
): Promise<JobAnswer> {
  assertJobIdShape(command, arg);
  if (SLURM_ELEMENT_ID.test(arg)) refuseElementId(command, arg);
  return SLURM_JOB_ID.test(arg)
    ? findSlurmJob(client, command, arg, clusterFlag)
    : getAllotJob(client, arg, clusterFlag);
}

/**
 * Allot's id of the job `arg` names. The server is asked only for a SLURM job id, or for an
 * Allot id given with `--cluster` (which must then be the job's cluster).
 */
export async function jobIdOfArg(
  client: ApiClient,
  command: string,
  arg: string,
  clusterFlag: unknown,
): Promise<string> {
  assertJobIdShape(command, arg);
  const isLookedUp =
    SLURM_JOB_ID.test(arg) || SLURM_ELEMENT_ID.test(arg) || typeof clusterFlag === "string";
  return isLookedUp ? (await getJobByArg(client, command, arg, clusterFlag)).id : arg;
}
