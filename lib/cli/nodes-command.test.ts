import { describe, expect, it } from "vitest";
import type { ClusterNodesAnswer, NodeAnswer } from "./api-answers";
import { NOW_SEC } from "./live-fixtures";
import { formatNodes } from "./nodes-command";
import { runLive } from "./test-helpers";

const healthy: NodeAnswer = {
  index: 0,
  hostname: "gpu00",
  gpus: 8,
  usedGpus: 8,
  runs: [{ jobId: "j1", gpus: 8 }],
  health: "healthy",
  healthChangedSec: NOW_SEC - 3 * 86_400,
  isUnchangedOnRecord: true,
  lastChange: null,
  drainedSec: null,
  emptyBySec: null,
};

const draining: NodeAnswer = {
  ...healthy,
  index: 1,
  hostname: "gpu01",
  usedGpus: 4,
  runs: [{ jobId: "j2", gpus: 4 }],
  health: "draining",
  healthChangedSec: NOW_SEC - 1800,
  isUnchangedOnRecord: false,
  lastChange: {
    atSec: NOW_SEC - 1800,
    actor: { source: "person", name: "Ada Okafor" },
    reason: "firmware update",
  },
  emptyBySec: NOW_SEC + 3600,
};

const down: NodeAnswer = {
  ...healthy,
  index: 2,
  hostname: null,
  usedGpus: 0,
  runs: [],
  health: "down",
  healthChangedSec: NOW_SEC - 7200,
  isUnchangedOnRecord: false,
  lastChange: { atSec: NOW_SEC - 7200, actor: { source: "executor", name: null }, reason: null },
};

const answer: ClusterNodesAnswer = { nowSec: NOW_SEC, nodes: [healthy, draining, down] };

describe("nodes' table", () => {
  it("sums the cluster's health and use, then lists each node with who set it and why", () => {
    expect(formatNodes("h100", answer, false).split("\n")).toEqual([
      "h100: 3 nodes, 24 GPUs: 1 healthy, 1 draining, 1 down; 12 GPUs in use",
      "",
      "NODE  NAME   HEALTH    GPUS  USED  RUNS       SINCE  NOTE",
      "----  -----  --------  ----  ----  ----  ----------  -------------------------------------------------------------------------------------------------------",
      "   0  gpu00  healthy      8     8     1           -",
      "   1  gpu01  draining     8     4     1      30 min  set by Ada Okafor at 04:50 UTC: firmware update; empty by ~06:20 UTC (when its last protected run ends)",
      "   2  -      down         8     0     0  2 h 00 min  set by the cluster's executor at 03:20 UTC",
      "",
    ]);
  });

  it("--unhealthy keeps the draining and down nodes, and says when there are none", () => {
    const rows = formatNodes("h100", answer, true).split("\n").slice(4, -1);
    expect(rows.map((row) => row.trim().split(/ +/)[0])).toEqual(["1", "2"]);
    expect(formatNodes("h100", { nowSec: NOW_SEC, nodes: [healthy] }, true)).toBe(
      "h100: 1 node, 8 GPUs: 1 healthy, 0 draining; 8 GPUs in use\nNo node is draining or down.\n",
    );
  });
});

describe("nodes' usage errors, before any request", () => {
  const env = { ALLOT_SERVER: "http://a:1", ALLOT_TOKEN: "allot_p_x" };

  it("a verb needs --cluster and a node; drain needs a reason", async () => {
    expect(await runLive(["nodes", "drain", "3"], env)).toEqual({
      code: 2,
      stdout: "",
      stderr: "allot: nodes drain: --cluster is required\n",
    });
    expect((await runLive(["nodes", "resume", "--cluster", "h100"], env)).stderr).toBe(
      "allot: nodes resume: missing <node> (see allot nodes --help)\n",
    );
    expect(
      (await runLive(["nodes", "drain", "3", "--cluster", "h100", "--reason", " "], env)).stderr,
    ).toBe(
      "allot: nodes drain: --reason is required (kept in the node's history, e.g. --reason 'firmware update')\n",
    );
  });

  it("an unknown verb, or a reason without a verb, is refused", async () => {
    expect((await runLive(["nodes", "reboot", "3"], env)).stderr).toBe(
      'allot: nodes: unknown verb "reboot" (drain, down or resume; see allot nodes --help)\n',
    );
    expect((await runLive(["nodes", "--reason", "why"], env)).code).toBe(2);
  });
});
