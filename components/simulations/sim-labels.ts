// How simulation pages name their sources and cite the Philly trace.

/** Human names of the sources. */
export const SOURCE_LABELS: Record<string, string> = {
  lab: "Generated lab",
  philly: "Philly trace",
  tree: "Current tree",
  upload: "Uploaded file",
};

/** The trace's attribution, wherever its results are shown (CC-BY-4.0). */
export const PHILLY_CITATION = "Microsoft Research, Philly traces";
