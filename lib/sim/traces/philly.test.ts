import { describe, expect, it } from "vitest";
import { parseScenario } from "../scenario";
import { convertPhillyTrace, parsePhillyCsv } from "./philly";

const CSV = `timestamp,duration,num_gpus,gpu_time,cluster
2017-10-09 07:01:55,66.0,1,66.0,vcA
2017-10-09 06:13:03,7200.0,16,115200.0,vcB
2017-10-09 06:13:03,0.0,2,0.0,vcA
2017-10-10 06:13:03,40000.0,128,5120000.0,vcC
`;

describe("parsePhillyCsv", () => {
  it("reads rows with UTC timestamps", () => {
    const parsed = parsePhillyCsv(CSV);
    if (!parsed.ok) throw new Error(parsed.issues.join());
    expect(parsed.rows[0]).toEqual({
      submitUnixSec: 1_507_532_515,
      durationSec: 66,
      gpus: 1,
      virtualCluster: "vcA",
    });
    expect(parsed.rows).toHaveLength(4);
  });

  it("lists every bad line", () => {
    const parsed = parsePhillyCsv(`timestamp,duration,num_gpus,gpu_time,cluster
yesterday,1,1,1,a
2017-10-09 07:01:55,-1,1,1,a
2017-10-09 07:01:55,1,0.5,1,a
`);
    expect(parsed).toEqual({
      ok: false,
      issues: ['line 2: bad timestamp "yesterday"', "line 3: bad duration", "line 4: bad num_gpus"],
    });
  });

  it("refuses a file without the expected columns", () => {
    expect(parsePhillyCsv("a,b\n1,2\n").ok).toBe(false);
  });
});

describe("convertPhillyTrace", () => {
  const parsed = parsePhillyCsv(CSV);
  if (!parsed.ok) throw new Error("bad fixture");

  it("maps virtual clusters to budgets weighted by GPU-hours, times relative to the first", () => {
    const file = convertPhillyTrace(parsed.rows, { gpus: 64 });
    expect(file.clusters).toEqual([{ name: "philly", gpuType: "GPU", nodes: 8, gpusPerNode: 8 }]);
    expect(file.tree).toEqual({
      name: "philly",
      children: [
        { name: "vcA", weight: 1 },
        { name: "vcB", weight: 32 },
        { name: "vcC", weight: 1422 },
      ],
    });
    expect(
      file.jobs.map((job) => [job.id, job.submit, job.gpus, job.work, job.minRuntime]),
    ).toEqual([
      ["p00002", 0, 16, 7200, "1h"],
      ["p00003", 0, 2, 1, "1s"],
      ["p00001", 2932, 1, 66, "66s"],
      ["p00004", 86_400, 64, 40_000, "1h"],
    ]);
    expect(parseScenario(file).ok).toBe(true);
  });

  it("takes equal or given weights", () => {
    expect(
      convertPhillyTrace(parsed.rows, { gpus: 64, weights: { kind: "equal" } }).tree.children?.map(
        (c) => c.weight,
      ),
    ).toEqual([1, 1, 1]);
    const given = convertPhillyTrace(parsed.rows, {
      gpus: 64,
      weights: { kind: "given", weights: { vcB: 5 } },
    });
    expect(given.tree.children?.map((c) => c.weight)).toEqual([0, 5, 0]);
  });
});
