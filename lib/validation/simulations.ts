import { z } from "zod";
import { parseDurationSec } from "../sim";
import { MAX_SIMULATION_DAYS } from "./simulation-limits";
import { lineString } from "../text";

/** Where a simulation's scenario comes from. */
export const SIMULATION_SOURCES = ["lab", "philly", "tree", "upload"] as const;
export type SimulationSource = (typeof SIMULATION_SOURCES)[number];

export const SIMULATION_STATUSES = ["queued", "running", "done", "failed"] as const;
export type SimulationStatus = (typeof SIMULATION_STATUSES)[number];

const durationText = (what: string, maxSec: number) =>
  lineString()
    .trim()
    .max(40, `${what} is a short duration such as "7d".`)
    .refine(
      (text) => {
        const sec = parseDurationSec(text);
        return sec !== null && sec > 0 && sec <= maxSec;
      },
      `${what} is a duration such as "90m", "8h" or "7d", above 0 and at most ${maxSec / 86_400} days.`,
    );

/**
 * Options a person may set on any simulation. Durations are scenario durations ("7d");
 * `clusterGpus` resizes every cluster (whole nodes); `days` and `seed` shape generated workloads.
 */
export const simulationOptionsSchema = z.strictObject({
  lookback: durationText("The lookback window", 90 * 86_400).optional(),
  maxMinRuntime: durationText("The maximum minimum runtime", 7 * 86_400).optional(),
  clusterGpus: z
    .number("The cluster size is a whole number of GPUs.")
    .int("The cluster size is a whole number of GPUs.")
    .min(8, "The cluster size is at least 8 GPUs.")
    .max(100_000, "The cluster size is at most 100,000 GPUs.")
    .refine(
      (gpus) => gpus % 8 === 0,
      "The cluster size is a multiple of 8 GPUs (whole nodes of 8).",
    )
    .optional(),
  days: z
    .number("The days are a whole number.")
    .int("The days are a whole number.")
    .min(1, "A simulation runs at least 1 day.")
    .max(MAX_SIMULATION_DAYS, `A simulation runs at most ${MAX_SIMULATION_DAYS} days.`)
    .optional(),
  seed: z
    .number("The seed is a whole number.")
    .int("The seed is a whole number.")
    .min(0, "The seed is 0 or more.")
    .max(4_294_967_295, "The seed is at most 4,294,967,295.")
    .optional(),
});
export type SimulationOptionsInput = z.infer<typeof simulationOptionsSchema>;

/** POST /api/v1/simulations: a built-in choice, or an uploaded scenario, and options. */
export const createSimulationSchema = z
  .strictObject({
    name: lineString().trim().min(1).max(120, "A name has at most 120 characters.").optional(),
    source: z.enum(SIMULATION_SOURCES),
    options: simulationOptionsSchema.default({}),
    /** The scenario file (docs/simulator.md) when `source` is `upload`. */
    scenario: z.unknown().optional(),
  })
  .superRefine((body, context) => {
    if (body.source === "upload" && body.scenario === undefined) {
      context.addIssue({
        code: "custom",
        path: ["scenario"],
        message: "An uploaded simulation needs its scenario file.",
      });
    }
    if (body.source !== "upload" && body.scenario !== undefined) {
      context.addIssue({
        code: "custom",
        path: ["scenario"],
        message: `A ${body.source} simulation builds its own scenario: leave this out.`,
      });
    }
  });
export type CreateSimulationInput = z.infer<typeof createSimulationSchema>;
