// The SLURM bridge's report of one sbatch job, as POST /api/v1/clusters/{name}/events takes it.

/**
 * A `job.submitted` event: an 8-GPU job of riley's on `language.lm-pretrain` (the demo lab's
 * tree), with no minimum runtime of its own (the cluster's default); `extra` changes any field.
 */
export function sbatchSubmitted(
  eventId: string,
  externalId: string,
  extra: Record<string, unknown> = {},
) {
  return {
    id: eventId,
    kind: "job.submitted" as const,
    externalId,
    account: "language.lm-pretrain",
    user: "riley",
    name: "sbatch job",
    gpus: 8,
    minRuntimeSec: null,
    isResumable: true,
    priority: "normal" as const,
    ...extra,
  };
}
