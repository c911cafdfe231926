import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serialize } from "node:v8";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { parseScenario, SCHEDULERS, simulateClusters } from "../lib/sim";
import { generateLabScenario } from "../lib/demo/lab-workload";
import { buildWorkerBundle } from "./build-worker";
import type { ThreadMessage, ThreadTask } from "../lib/simulations/threads/sim-thread";

// Inside the app, as serve.ts's bundle is, so that its packages resolve.
const OUT_DIR = path.resolve(
  import.meta.dirname,
  "..",
  "node_modules",
  ".cache",
  "build-worker-test",
);

describe("the simulation worker's bundle", () => {
  afterAll(() => rmSync(OUT_DIR, { recursive: true, force: true }));

  it("starts without tsx, and its thread simulates a cluster as the source does", async () => {
    const { workerPath, threadPath } = await buildWorkerBundle(OUT_DIR);
    const env = { ...process.env, DATABASE_URL: "" };
    const started = spawnSync(process.execPath, [workerPath], { env, encoding: "utf8" });
    expect(started.stderr).toContain("sim-worker needs DATABASE_URL");

    const parsed = parseScenario(
      generateLabScenario({
        days: 1,
        seed: 4,
        clusters: [{ name: "h100", gpuType: "H100", nodes: 4, gpusPerNode: 8 }],
      }),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const scenario = parsed.value;
    const thread = new Worker(`import(${JSON.stringify(pathToFileURL(threadPath).href)})`, {
      eval: true,
    });
    try {
      const outcome = await new Promise((resolve, reject) => {
        thread.on("message", (message: ThreadMessage) => {
          if (message.type === "done") resolve(message.outcome);
        });
        thread.on("error", reject);
        const task: ThreadTask = {
          replay: 0,
          scenarioBytes: serialize(scenario),
          scheduler: "allocation",
          cluster: "h100",
          isPacked: false,
        };
        thread.postMessage(task);
      });
      expect(outcome).toStrictEqual(simulateClusters(scenario, ["h100"], SCHEDULERS.allocation)[0]);
    } finally {
      await thread.terminate();
    }
  }, 30_000);
});
