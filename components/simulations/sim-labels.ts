// How simulation pages name their sources and cite the Philly trace.
import { LAB_DEFAULT_DAYS, TREE_DEFAULT_DAYS } from "@/lib/simulations/scenario-options";
import { MAX_GENERATE_DAYS, MAX_SIMULATION_DAYS } from "@/lib/validation/simulation-limits";

/** Human names of the sources. */
export const SOURCE_LABELS: Record<string, string> = {
  lab: "Generated lab",
  philly: "Philly trace",
  tree: "Current tree",
  upload: "Uploaded file",
};

/** The trace's attribution, wherever its results are shown (CC-BY-4.0). */
export const PHILLY_CITATION = "Microsoft Research, Philly traces";

/**
 * The Days field's hint: what the days are for this source, and why the field stops at
 * {@link MAX_SIMULATION_DAYS} when `allot generate` goes further.
 */
export function describeDaysOption(source: "lab" | "philly" | "tree"): string {
  const what =
    source === "philly"
      ? "Only the trace's first days. Empty: the whole trace."
      : `Length of the generated workload. Empty: ${source === "lab" ? LAB_DEFAULT_DAYS : TREE_DEFAULT_DAYS} days.`;
  return `${what} At most ${MAX_SIMULATION_DAYS}: it runs on the shared server (allot generate goes to ${MAX_GENERATE_DAYS}).`;
}
