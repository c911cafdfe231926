import { describe, expect, it } from "vitest";
import { rankBudgets } from "./fair-tree";
import { createIncrementalScheduler } from "./incremental-scheduler";
import { runSchedulePass } from "./schedule-pass";
import { buildTree, makeCluster, makeJob, makeRun } from "./test-helpers";

// hi ranks 1 (no usage), lo ranks 2 (all the usage).
const TREE = buildTree({ name: "lab", children: [{ name: "hi" }, { name: "lo" }] });
const USAGE = { lo: 1_000_000 };
const NOW = 7200;

describe("createIncrementalScheduler", () => {
  it("runs the pass after a job leaves the queue, even when the pass before decided nothing", () => {
    const cluster = makeCluster(2);
    const ranking = rankBudgets(TREE, USAGE, { capacityGpus: 16, windowSec: cluster.lookbackSec });
    const run = makeRun("r0", "lo", [{ node: 0, gpus: 8 }], {
      startSec: 6000,
      protectedUntilSec: 9000,
    });
    // big holds nodes 0-1 until r0's protection ends; long (8 h) may not backfill there.
    const big = makeJob("big", "hi", 16);
    const long = makeJob("long", "lo", 8, { minRuntimeSec: 8 * 3600, submitSec: 1 });
    const scheduler = createIncrementalScheduler(TREE, cluster);
    scheduler.addRun(run);
    scheduler.addJob(big);
    scheduler.addJob(long);
    const check = {
      cluster,
      nowSec: NOW,
      freeGpus: [0, 8],
      usableFreeGpus: 8,
      ranking: () => ranking,
    };
    expect(scheduler.canSkipPass(check)).toBeNull();
    expect(scheduler.pass({ cluster, nowSec: NOW, ranking }).starts).toEqual([]);

    scheduler.removeJob("big");
    expect(scheduler.canSkipPass({ ...check })).toBeNull();
    const result = scheduler.pass({ cluster, nowSec: NOW, ranking });
    const fresh = runSchedulePass({
      cluster,
      nowSec: NOW,
      tree: TREE,
      leafUsage: USAGE,
      ranking,
      runs: [run],
      pending: [long],
    });
    expect(result.starts.map((start) => start.jobId)).toEqual(["long"]);
    expect(result).toEqual(fresh);
  });
});
