import { describe, expect, it } from "vitest";
import { parseScenario, runSimulation, SCHEDULERS } from "../sim";
import { generateLabScenario } from "../demo/lab-workload";
import { encodeTimeline, encodeTimelineRuns } from "./timeline-data";
import { timelineRunsTransfer, toTimelineRuns } from "./timeline-runs";

const parsed = parseScenario(
  generateLabScenario({
    days: 2,
    seed: 3,
    clusters: [
      { name: "h100", gpuType: "H100", nodes: 6, gpusPerNode: 8 },
      { name: "b200", gpuType: "B200", nodes: 5, gpusPerNode: 8 },
    ],
  }),
);
if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
const scenario = parsed.value;

describe("timeline runs (a result's runs for the timeline, in typed arrays)", () => {
  it.each(["baseline", "allocation"] as const)(
    "%s: the timeline of the runs posted to another thread is the result's own",
    (scheduler) => {
      const result = runSimulation(scenario, SCHEDULERS[scheduler]);
      const runs = toTimelineRuns(result);
      const posted = structuredClone(runs, { transfer: timelineRunsTransfer(runs) });
      expect(runs.job.length).toBe(0); // transferred, not copied
      const timeline = encodeTimelineRuns(scenario, posted);
      expect(timeline).toEqual(encodeTimeline(scenario, result));
      if (scheduler === "allocation") expect(timeline.reasons.length).toBeGreaterThan(0);
    },
  );
});
