import { describe, expect, it } from "vitest";
import { generateLabScenario, parseScenario, type SchedulerName } from "../sim";
import { InputError, type CliIo } from "./io";
import { chooseThreadCount, simulateSchedulers, THREADS_MIN_JOBS } from "./simulate-schedulers";

describe("chooseThreadCount", () => {
  it("takes the machine's cores from THREADS_MIN_JOBS jobs x schedulers, else this thread", () => {
    expect(THREADS_MIN_JOBS).toBe(20_000);
    const lab30 = { jobs: 31_728, clusters: 3, schedulers: 1 };
    expect(chooseThreadCount(lab30, undefined, 2)).toBe(2);
    expect(chooseThreadCount(lab30, undefined, 8)).toBe(3); // one task per cluster
    expect(chooseThreadCount({ ...lab30, schedulers: 2 }, undefined, 8)).toBe(6);
    expect(chooseThreadCount(lab30, undefined, 1)).toBe(1); // one core
    expect(chooseThreadCount({ ...lab30, clusters: 1 }, undefined, 4)).toBe(1); // one task
    expect(chooseThreadCount({ jobs: 10_000, clusters: 3, schedulers: 2 }, undefined, 2)).toBe(2);
    expect(chooseThreadCount({ jobs: 9_999, clusters: 3, schedulers: 2 }, undefined, 2)).toBe(1);
    expect(chooseThreadCount({ jobs: 2_184, clusters: 3, schedulers: 1 }, undefined, 2)).toBe(1);
  });

  it("follows --threads whatever the size and cores, up to one thread per task", () => {
    const lab2 = { jobs: 2_184, clusters: 3, schedulers: 2 };
    expect(chooseThreadCount(lab2, 2, 1)).toBe(2);
    expect(chooseThreadCount(lab2, 16, 2)).toBe(6);
    expect(chooseThreadCount({ jobs: 969_017, clusters: 3, schedulers: 2 }, 1, 64)).toBe(1);
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
