import { describe, expect, it } from "vitest";
import { expandHostlist, parseSacct, parseSinfo, parseSqueue } from "./slurm-read";

// Trimmed from SLURM 22.05's `squeue --json` and `sinfo --json` on the local test cluster.
const SQUEUE = JSON.stringify({
  jobs: [
    {
      job_id: 1,
      account: "team-a",
      user_name: "root",
      name: "test1",
      time_minimum: 30,
      requeue: true,
      tres_per_node: "gres:gpu:2",
      tres_per_job: "",
      tres_req_str: "cpu=1,mem=62.50G,node=1,billing=1,gres/gpu=2",
      node_count: 1,
      nodes: "",
      job_state: "PENDING",
      state_reason: "JobHeldUser",
      priority: 0,
      exit_code: 0,
      comment: "",
      nice: null,
    },
    {
      job_id: 4,
      account: "team-a",
      user_name: "root",
      name: "wide",
      time_minimum: 0,
      requeue: false,
      tres_per_node: "",
      tres_per_job: "gres:gpu:40",
      tres_req_str: "cpu=1,mem=62.50G,node=1,billing=1,gres/gpu=40",
      node_count: 1,
      nodes: "n[1-2]",
      job_state: "FAILED",
      state_reason: "NonZeroExitCode",
      priority: 1,
      exit_code: 768,
      comment: "allot:priority=high",
      nice: -5,
    },
  ],
});

describe("parseSqueue", () => {
  it("reads GPUs, the minimum runtime, requeue, nodes and the exit code", () => {
    const [held, wide] = parseSqueue(SQUEUE);
    expect(held).toMatchObject({
      id: "1",
      gpus: 2,
      gpusPerNode: 2,
      minRuntimeSec: 1800,
      isRequeueable: true,
      priority: 0,
      nice: 0,
    });
    expect(wide).toMatchObject({
      id: "4",
      gpus: 40,
      gpusPerNode: null,
      minRuntimeSec: null,
      isRequeueable: false,
      nodes: ["n1", "n2"],
      exitCode: 3,
      nice: -5,
    });
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
