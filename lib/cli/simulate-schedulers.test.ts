import { describe, expect, it } from "vitest";
import { parseScenario, type SchedulerName } from "../sim";
import { generateLabScenario } from "../demo/lab-workload";
import { InputError, type CliIo } from "./io";
import {
  chooseThreadCount,
  CORES_PER_THREAD,
  JOB_COST,
  simulateSchedulers,
  THREADS_MIN_JOBS,
} from "./simulate-schedulers";

describe("chooseThreadCount", () => {
  it("takes a thread per two cores from THREADS_MIN_JOBS allocation jobs, else this thread", () => {
    expect(THREADS_MIN_JOBS).toBe(50_000);
    expect(CORES_PER_THREAD).toBe(2);
    const year30 = { jobs: 79_762, clusters: 3, schedulers: ["allocation" as const] };
    expect(chooseThreadCount(year30, undefined, 2)).toBe(1); // two cores: V8 takes one
    expect(chooseThreadCount(year30, undefined, 4)).toBe(2);
    expect(chooseThreadCount(year30, undefined, 5)).toBe(2);
    expect(chooseThreadCount(year30, undefined, 8)).toBe(3); // one task per cluster
    const both: SchedulerName[] = ["baseline", "allocation"];
    expect(chooseThreadCount({ ...year30, schedulers: both }, undefined, 8)).toBe(4);
    expect(chooseThreadCount({ ...year30, schedulers: both }, undefined, 16)).toBe(6);
    expect(chooseThreadCount(year30, undefined, 1)).toBe(1); // one core
    expect(chooseThreadCount({ ...year30, clusters: 1 }, undefined, 8)).toBe(1); // one task
    expect(chooseThreadCount({ ...year30, jobs: 50_000 }, undefined, 4)).toBe(2);
    expect(chooseThreadCount({ ...year30, jobs: 49_999 }, undefined, 4)).toBe(1);
    expect(chooseThreadCount({ ...year30, jobs: 31_728 }, undefined, 4)).toBe(1); // lab, 30 d
    expect(chooseThreadCount({ jobs: 31_728, clusters: 3, schedulers: both }, undefined, 4)).toBe(
      1,
    );
  });

  it("counts a baseline job as 1/8 of an allocation job, a reference job as 6", () => {
    const baseline = { clusters: 3, schedulers: ["baseline" as const] };
    expect(JOB_COST).toEqual({ allocation: 1, baseline: 0.125, reference: 6 });
    const reference = { clusters: 3, schedulers: ["reference" as const] };
    expect(chooseThreadCount({ ...reference, jobs: 8_333 }, undefined, 4)).toBe(1);
    expect(chooseThreadCount({ ...reference, jobs: 8_334 }, undefined, 4)).toBe(2);
    expect(chooseThreadCount({ ...baseline, jobs: 399_999 }, undefined, 4)).toBe(1);
    expect(chooseThreadCount({ ...baseline, jobs: 400_000 }, undefined, 4)).toBe(2);
    expect(chooseThreadCount({ ...baseline, jobs: 969_017 }, undefined, 4)).toBe(2); // the year
    const both = { clusters: 3, schedulers: ["baseline", "allocation"] as SchedulerName[] };
    expect(chooseThreadCount({ ...both, jobs: 44_445 }, undefined, 4)).toBe(2); // 50,000.6
    expect(chooseThreadCount({ ...both, jobs: 44_444 }, undefined, 4)).toBe(1); // 49,999.5
  });

  it("follows --threads whatever the size and cores, up to one thread per task", () => {
    const lab2 = {
      jobs: 2_184,
      clusters: 3,
      schedulers: ["baseline", "allocation"] as SchedulerName[],
    };
    expect(chooseThreadCount(lab2, 2, 1)).toBe(2);
    expect(chooseThreadCount(lab2, 16, 2)).toBe(6);
    expect(chooseThreadCount({ ...lab2, jobs: 969_017 }, 1, 64)).toBe(1);
  });
});

describe("simulateSchedulers on threads", () => {
  it("fails with the thread's error, clears its progress line and leaves no result", async () => {
    const parsed = parseScenario(
      generateLabScenario({
        days: 1,
        seed: 2,
        clusters: [
          { name: "a", gpuType: "H100", nodes: 4, gpusPerNode: 8 },
          { name: "b", gpuType: "B200", nodes: 2, gpusPerNode: 8 },
        ],
      }),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const err: string[] = [];
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => err.push(text),
      isStderrTty: true,
      readText: () => "",
      writeText: () => undefined,
    };
    const results: unknown[] = [];
    const run = simulateSchedulers(
      io,
      parsed.value,
      ["allocation", "nope" as SchedulerName],
      2,
      (result) => results.push(result),
    );
    await expect(run).rejects.toThrow(
      new InputError('simulate: a simulation thread failed: No scheduler "nope".'),
    );
    await expect(run).rejects.toBeInstanceOf(InputError);
    expect(results).toEqual([]);
    expect(err.at(-1)).toBe("\r\u001b[K");
  }, 30_000);
});
