import { describe, expect, it } from "vitest";
import { formatSpan, liveTimeFormatter } from "../format";
import { cancelConsequence, drainConsequence, splitChanges } from "./consequences";

const NOW = 1_764_504_300; // 2025-11-30 12:05 UTC
const time = liveTimeFormatter(NOW);

describe("cancelConsequence", () => {
  it("names a protected running job's GPUs, runtime and protection, and says it ends now", () => {
    expect(
      cancelConsequence(
        {
          name: "llm-70b",
          gpus: 64,
          state: "running",
          runningSinceSec: NOW - 7_800,
          protectedUntilSec: NOW + 3_300,
          queuePosition: null,
          nowSec: NOW,
        },
        time,
      ),
    ).toEqual({
      question: "Cancel job llm-70b (64 GPUs, running 2 h 10 min, protected until 13:00 UTC)?",
      consequence:
        "Its run ends now, protected or not, and its GPUs go to the next job in the queue.",
    });
    expect(formatSpan(7_800)).toBe("2 h 10 min");
  });

  it("leaves out a protection that has ended", () => {
    const { question, consequence } = cancelConsequence(
      {
        name: "a",
        gpus: 1,
        state: "running",
        runningSinceSec: NOW - 600,
        protectedUntilSec: NOW - 1,
        queuePosition: null,
        nowSec: NOW,
      },
      time,
    );
    expect(question).toBe("Cancel job a (1 GPU, running 10 min)?");
    expect(consequence).toBe("Its run ends now and its GPUs go to the next job in the queue.");
  });

  it("says a pending job leaves the queue, with its place", () => {
    expect(
      cancelConsequence(
        {
          name: "sweep",
          gpus: 8,
          state: "pending",
          runningSinceSec: null,
          protectedUntilSec: null,
          queuePosition: 3,
          nowSec: NOW,
        },
        time,
      ),
    ).toEqual({
      question: "Cancel job sweep (8 GPUs, #3 in the queue)?",
      consequence: "It leaves the queue and never starts.",
    });
  });
});

describe("drainConsequence", () => {
  const run = (jobId: string, protectedUntilSec: number) => ({
    jobId,
    jobName: jobId,
    gpus: 4,
    protectedUntilSec,
  });

  it("splits runs into preempted at once and protected until, and says when it is empty", () => {
    const result = drainConsequence([run("a", NOW - 5), run("b", NOW + 4_500)], NOW, time);
    expect(result.preemptedNow.map((r) => r.jobId)).toEqual(["a"]);
    expect(result.protectedRuns.map((r) => r.jobId)).toEqual(["b"]);
    expect(result.summary).toBe(
      "It takes no new runs and is empty by 13:20 UTC, when its last protected run ends.",
    );
  });

  it("says an unprotected node empties at once", () => {
    expect(drainConsequence([run("a", NOW)], NOW, time).summary).toBe(
      "Its run is preempted at once, and it takes no new runs.",
    );
    expect(drainConsequence([], NOW, time).summary).toBe("No run is on it: it is empty at once.");
  });
});

describe("splitChanges", () => {
  it("lists changed, renamed, added and removed children, and leaves out the unchanged", () => {
    const current = [
      { id: "a", name: "a", weight: 1 },
      { id: "b", name: "b", weight: 2 },
      { id: "c", name: "c", weight: 3 },
      { id: "d", name: "d", weight: 1 },
    ];
    const proposed = [
      { id: "a", name: "a", weight: 4 },
      { id: "b", name: "b2", weight: 2 },
      { id: "c", name: "c", weight: 3 },
      { name: "e", weight: 0.5 },
    ];
    expect(splitChanges(current, proposed)).toEqual([
      "a: weight 1 → 4",
      "b (renamed to b2): weight 2 → 2",
      "e: added with weight 0.5",
      "d: removed, with everything below it",
    ]);
  });
});
