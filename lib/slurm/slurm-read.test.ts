import { describe, expect, it } from "vitest";
import {
  expandHostlist,
  parseSacct,
  parseSinfo,
  parseSlurmDuration,
  parseSqueue,
} from "./slurm-read";

// Lines of SLURM 22.05's `squeue` with SQUEUE_ARGS on the local test cluster.
const SQUEUE = [
  "1|team-a|root|PENDING|JobHeldUser|0|gres:gpu:2|N/A|1|30:00|1|0|0|N/A||test1|(null)",
  "4|team-a|root|FAILED|NonZeroExitCode|42|N/A|gres:gpu:40|1|1:30:00|0|-5|768|2026-12-08T09:30:05|n[1-2]|wide|allot:priority=high|x",
  "5|team-a|root|PENDING|JobHeldUser|0|gres:gpu:8|N/A|2|0:00|1|10|0|Unknown||two nodes|Allot: #2 in Allot's queue.",
  // SLURM_TIME_FORMAT=%s, as the bridge runs squeue: epoch seconds.
  "6|team-a|root|RUNNING|None|5|gres:gpu:8|N/A|1|0:00|1|0|0|1796697253|n3|epoch|",
].join("\n");

describe("parseSqueue", () => {
  it("reads GPUs, the minimum runtime, requeue, nodes, the exit code and a comment with '|'", () => {
    const [held, wide, two, epoch] = parseSqueue(SQUEUE);
    expect(epoch).toMatchObject({ id: "6", startedAtMs: 1_796_697_253_000, nodes: ["n3"] });
    expect(held).toMatchObject({
      id: "1",
      startedAtMs: null,
      gpus: 2,
      gpusPerNode: 2,
      minRuntimeSec: 1800,
      isRequeueable: true,
      priority: 0,
      comment: "",
    });
    expect(wide).toMatchObject({
      id: "4",
      gpus: 40,
      gpusPerNode: null,
      minRuntimeSec: 5400,
      isRequeueable: false,
      nodes: ["n1", "n2"],
      // squeue prints local time with no offset: read in this process's time zone.
      startedAtMs: new Date(2026, 11, 8, 9, 30, 5).getTime(),
      exitCode: 3,
      nice: -5,
      comment: "allot:priority=high|x",
    });
    expect(two).toMatchObject({
      gpus: 16,
      nodeCount: 2,
      minRuntimeSec: null,
      nice: 10,
      name: "two nodes",
    });
  });

  it("reads SLURM's durations", () => {
    expect(["0:00", "30:00", "1:30:00", "2-00:00:00", "x"].map(parseSlurmDuration)).toEqual([
      0,
      1800,
      5400,
      172_800,
      null,
    ]);
  });
});

describe("parseSinfo", () => {
  it("reads each node once, with its GPUs, state and flags", () => {
    const json = JSON.stringify({
      nodes: [
        { name: "n1", state: "MIXED", state_flags: ["DRAIN"], gres: "gpu:8", reason: "fan" },
        { name: "n1", state: "MIXED", state_flags: ["DRAIN"], gres: "gpu:8", reason: "fan" },
        { name: "n2", state: "idle", state_flags: [], gres: "gpu:h100:4(S:0)", reason: "" },
      ],
    });
    expect(parseSinfo(json)).toEqual([
      { name: "n1", gpus: 8, state: "mixed", flags: ["DRAIN"], reason: "fan" },
      { name: "n2", gpus: 4, state: "idle", flags: [], reason: "" },
    ]);
  });
});

describe("parseSacct", () => {
  it("keeps the last record of each job", () => {
    const records = parseSacct(
      "1|REQUEUED|0:0\n1|COMPLETED|0:0\n2|CANCELLED by 0|0:15\n3|FAILED|3:0\n",
    );
    expect([...records.values()]).toEqual([
      { id: "1", state: "COMPLETED", exitCode: 0 },
      { id: "2", state: "CANCELLED", exitCode: 0 },
      { id: "3", state: "FAILED", exitCode: 3 },
    ]);
  });
});

describe("expandHostlist", () => {
  it("expands ranges and lists, keeping zero padding", () => {
    expect(expandHostlist("n[1-3,5],gpu-a7")).toEqual(["n1", "n2", "n3", "n5", "gpu-a7"]);
    expect(expandHostlist("node[08-10]")).toEqual(["node08", "node09", "node10"]);
    expect(expandHostlist("")).toEqual([]);
  });
});
