// How simulation pages write waits and numbers (moments: formatSimMoment in lib/format.ts).

/** "45 s", "12 min", "3.5 h", "2.1 d": one unit, at most one decimal. */
export function formatWait(sec: number): string {
  if (sec < 60) return `${Math.round(sec)} s`;
  if (sec < 3600) return `${Math.round(sec / 60)} min`;
  if (sec < 86_400) return `${(sec / 3600).toFixed(sec < 36_000 ? 1 : 0)} h`;
  return `${(sec / 86_400).toFixed(1)} d`;
}

/** "97.3%" */
export function formatShare(fraction: number | null): string {
  return fraction === null ? "–" : `${(fraction * 100).toFixed(1)}%`;
}

/** "12,345" */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** Human names of the sources. */
export const SOURCE_LABELS: Record<string, string> = {
  lab: "Generated lab",
  philly: "Philly trace",
  tree: "Current tree",
  upload: "Uploaded file",
};

/** The trace's attribution, wherever its results are shown (CC-BY-4.0). */
export const PHILLY_CITATION = "Microsoft Research, Philly traces";
