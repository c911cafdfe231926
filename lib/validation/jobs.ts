// Job submission (browser form and POST /api/v1/jobs). Rules that need the database
// (cluster size, maximum minimum runtime, budget membership) live in lib/data/jobs.ts and
// answer with the same field issues.
import { z } from "zod";

export const PRIORITIES = ["low", "normal", "high"] as const;

export const submitJobSchema = z.strictObject({
  cluster: z.string().trim().min(1, "Choose a cluster."),
  budgetId: z.string().trim().min(1, "Choose a budget."),
  name: z
    .string()
    .trim()
    .min(1, "Give the job a name.")
    .max(120, "A job name has at most 120 characters."),
  gpus: z
    .number("GPUs must be a number.")
    .int("GPUs must be a whole number.")
    .min(1, "A job needs at least 1 GPU."),
  minRuntimeSec: z
    .number("Minimum runtime must be a number of seconds.")
    .int("Minimum runtime must be whole seconds.")
    .min(0, "Minimum runtime cannot be negative."),
  isResumable: z.boolean().default(true),
  priority: z.enum(PRIORITIES).default("normal"),
  /** Known total work, for demo and simulated jobs; real jobs leave it out. */
  workSec: z.number().int().min(1).optional(),
});

export type SubmitJobInput = z.output<typeof submitJobSchema>;

/** A route parameter naming a job or cluster. */
export const idParamSchema = z.string().trim().min(1).max(100);
