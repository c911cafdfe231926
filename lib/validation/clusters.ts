// Registering a cluster that an outside executor drives (POST /api/v1/clusters): today a
// SLURM cluster, its nodes read from sinfo by `allot slurm register` (docs/slurm.md).
import { z } from "zod";
import { formatExactDuration } from "../engine";
import { int4 } from "./numbers";
import { lineString } from "../text";

const MAX_NODES = 10_000;

/**
 * Why a cluster's default minimum runtime cannot stand beside its maximum, or null: a default
 * above the maximum would refuse every job that declares none, blaming the job.
 */
export function minRuntimeDefaultProblem(defaultSec: number, maxSec: number): string | null {
  if (defaultSec <= maxSec) return null;
  return `The default minimum runtime (defaultMinRuntimeSec, ${formatExactDuration(defaultSec)}) is above the maximum (maxMinRuntimeSec, ${formatExactDuration(maxSec)}): every job that declares none would be refused. Lower the default or raise the maximum.`;
}

export const registerClusterSchema = z
  .strictObject({
    name: lineString("Name the cluster.")
      .trim()
      .regex(
        /^[a-z0-9][a-z0-9_-]{0,62}$/,
        "A cluster name is 1 to 63 lowercase letters, digits, '-' or '_', starting with a letter or digit.",
      ),
    gpuType: lineString("Name the GPU type.")
      .trim()
      .min(1, "Name the GPU type.")
      .max(40, "A GPU type has at most 40 characters."),
    executor: z.literal("slurm", { error: 'Only "slurm" clusters can be registered.' }),
    maxMinRuntimeSec: int4({ min: 0, minMessage: "The maximum cannot be negative." }).optional(),
    defaultMinRuntimeSec: int4({
      min: 0,
      minMessage: "The default cannot be negative.",
    }).optional(),
    nodes: z
      .array(
        z.strictObject({
          hostname: lineString("Name the node.")
            .trim()
            .min(1, "Name the node.")
            .max(200, "A node name has at most 200 characters."),
          gpus: int4({ min: 1, minMessage: "A node needs at least 1 GPU." }),
        }),
      )
      .min(1, "List at least one node.")
      .max(MAX_NODES, `List at most ${MAX_NODES} nodes.`)
      .refine(
        (nodes) => new Set(nodes.map((node) => node.hostname)).size === nodes.length,
        "Each node is listed once.",
      ),
    /** When set, a new cluster token of this name is made and returned (once). */
    tokenName: lineString("Name the token.")
      .trim()
      .min(1, "Name the token.")
      .max(100, "A token name has at most 100 characters.")
      .optional(),
  })
  .superRefine((input, context) => {
    // Only when both are given; one given beside a stored or default other is checked on write.
    if (input.defaultMinRuntimeSec === undefined || input.maxMinRuntimeSec === undefined) return;
    const problem = minRuntimeDefaultProblem(input.defaultMinRuntimeSec, input.maxMinRuntimeSec);
    if (problem)
      context.addIssue({ code: "custom", path: ["defaultMinRuntimeSec"], message: problem });
  });

export type RegisterClusterInput = z.output<typeof registerClusterSchema>;
