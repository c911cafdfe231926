import { CLOCK_NAME } from "@/lib/format";

const TEXT = {
  // Runs, ticks and decisions are stamped with the app clock (lib/data/db/clock.ts).
  cluster: `Times are the cluster clock, ${CLOCK_NAME}.`,
  // Budget edits and simulation runs are stamped when a person saved or started them.
  real: `Times are real time, ${CLOCK_NAME}, not the cluster clock (in the demo the cluster clock runs faster).`,
} as const;

/** Names the clock that the times on a page are read on. */
export function ClockNote({ clock = "cluster" }: { clock?: keyof typeof TEXT }) {
  return <p className="muted clock-note">{TEXT[clock]}</p>;
}
