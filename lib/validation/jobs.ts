// Job submission (browser form and POST /api/v1/jobs). Rules that need the database
// (cluster size, maximum minimum runtime, budget membership) live in lib/data/jobs.ts and
// answer with the same field issues.
import { z } from "zod";
import { int4 } from "./numbers";
import { lineString } from "../text";

export const PRIORITIES = ["low", "normal", "high"] as const;

export const submitJobSchema = z.strictObject({
  cluster: lineString("Choose a cluster.")
    .trim()
    .min(1, "Choose a cluster.")
    .max(100, "A cluster name has at most 100 characters."),
  budgetId: lineString("Choose a budget.")
    .trim()
    .min(1, "Choose a budget.")
    .max(64, "A budget id has at most 64 characters."),
  name: lineString("Give the job a name.")
    .trim()
    .min(1, "Give the job a name.")
    .max(120, "A job name has at most 120 characters."),
  gpus: int4({
    error: "GPUs must be a number.",
    whole: "GPUs must be a whole number.",
    min: 1,
    minMessage: "A job needs at least 1 GPU.",
  }),
  minRuntimeSec: int4({
    error: "Minimum runtime must be a number of seconds.",
    whole: "Minimum runtime must be whole seconds.",
    min: 0,
    minMessage: "Minimum runtime cannot be negative.",
  }),
  isResumable: z.boolean().default(true),
  priority: z.enum(PRIORITIES).default("normal"),
  /** Known total work, for demo and simulated jobs; real jobs leave it out. */
  workSec: int4({ min: 1 }).optional(),
});

export type SubmitJobInput = z.output<typeof submitJobSchema>;
