// npx tsx scripts/bench/engine.ts - scheduling pass and queue ordering on a lab-sized cluster.
// Budgets (docs/engine-benchmarks.md): one pass, 1,024 GPUs (128 x 8), 5,000 pending, 600 running,
// 200-leaf tree <= 20 ms median; ordering 100,000 pending <= 100 ms median.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import {
  computeLeafUsage,
  orderQueue,
  rankBudgets,
  runSchedulePass,
  validateBudgetTree,
  type ActiveRun,
  type BudgetNode,
  type BudgetTree,
  type ClusterSpec,
  type PendingJob,
  type Priority,
  type SchedulePassInput,
} from "../../lib/engine/index.ts";

/** mulberry32: a small seeded generator, so every run measures the same input. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function makeTree(leaves: number, random: () => number): { tree: BudgetTree; leafIds: string[] } {
  const programs = Math.max(1, Math.round(Math.sqrt(leaves / 2)));
  const nodes: BudgetNode[] = [{ id: "root", parentId: null, name: "lab", weight: 1 }];
  const leafIds: string[] = [];
  for (let p = 0; p < programs; p += 1) {
    nodes.push({
      id: `p${p}`,
      parentId: "root",
      name: `p${p}`,
      weight: 1 + Math.floor(random() * 9),
    });
  }
  for (let l = 0; l < leaves; l += 1) {
    const id = `p${l % programs}/l${l}`;
    nodes.push({
      id,
      parentId: `p${l % programs}`,
      name: `l${l}`,
      weight: Math.floor(random() * 5),
    });
    leafIds.push(id);
  }
  const result = validateBudgetTree(nodes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return { tree: result.value, leafIds };
}

const NOW = 30 * 86400;
const PRIORITIES: Priority[] = ["low", "normal", "normal", "high"];

/**
 * "churn": runs started up to 12 h ago with 15 min-8 h minimum runtimes, so many are
 * unprotected and a pass preempts hundreds; "steady": runs started in the last hour with 4-8 h
 * minimum runtimes, so only unallocated runs can be preempted (the usual pass).
 */
function makeInput(
  pendingCount: number,
  leaves: number,
  mode: "churn" | "steady" = "churn",
  seed = 1,
): SchedulePassInput & {
  pending: PendingJob[];
  runs: ActiveRun[];
  leafUsage: Record<string, number>;
} {
  const random = createRandom(seed);
  const { tree, leafIds } = makeTree(leaves, random);
  const cluster: ClusterSpec = {
    name: "h100",
    lookbackSec: 7 * 86400,
    maxMinRuntimeSec: 8 * 3600,
    nodes: Array.from({ length: 128 }, (_, index) => ({
      index,
      gpus: 8,
      health: index === 7 ? "draining" : index === 9 ? "down" : "healthy",
    })),
  };
  // 600 runs filling most of the cluster: 16 gang runs of 2 nodes, the rest 1-2 GPU runs.
  const runs: ActiveRun[] = [];
  const free = cluster.nodes.map((node) => node.gpus);
  let node = 0;
  const addRun = (placement: { node: number; gpus: number }[]): void => {
    const startSec = NOW - Math.floor(random() * (mode === "churn" ? 12 : 1) * 3600);
    const isAllocated = random() < 0.85;
    const gpus = placement.reduce((sum, slice) => sum + slice.gpus, 0);
    runs.push({
      id: `r${runs.length}`,
      jobId: `rj${runs.length}`,
      budgetId: pick(random, leafIds),
      userId: "u",
      gpus,
      placement,
      startSec,
      isAllocated,
      protectedUntilSec: isAllocated
        ? startSec +
          pick(random, mode === "churn" ? [900, 3600, 4 * 3600, 8 * 3600] : [4 * 3600, 8 * 3600])
        : startSec,
      isResumable: random() < 0.7,
      priority: pick(random, PRIORITIES),
    });
    for (const slice of placement) free[slice.node] = free[slice.node]! - slice.gpus;
  };
  for (let gang = 0; gang < 16; gang += 1, node += 2) {
    addRun([
      { node, gpus: 8 },
      { node: node + 1, gpus: 8 },
    ]);
  }
  while (runs.length < 600 && node < 128) {
    const gpus = Math.min(free[node]!, random() < 0.75 ? 1 : 2);
    if (gpus > 0) addRun([{ node, gpus }]);
    if (free[node]! === 0 || random() < 0.01) node += 1;
  }
  const usage = computeLeafUsage(
    leafIds.map((budgetId) => ({
      budgetId,
      gpus: 1 + Math.floor(random() * 64),
      startSec: NOW - Math.floor(random() * 7 * 86400),
      endSec: null,
      isAllocated: true,
    })),
    NOW,
  );
  const pending: PendingJob[] = Array.from({ length: pendingCount }, (_, i) => ({
    id: `j${i}`,
    budgetId: pick(random, leafIds),
    userId: "u",
    gpus: pick(random, [1, 1, 2, 4, 8, 8, 16, 32, 64]),
    minRuntimeSec: pick(random, [0, 900, 3600, 4 * 3600]),
    isResumable: random() < 0.8,
    priority: pick(random, PRIORITIES),
    submitSec: NOW - Math.floor(random() * 86400),
  }));
  return { cluster, nowSec: NOW, tree, leafUsage: usage, runs, pending };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median and minimum wall time in ms; the minimum shows the cost on an idle machine. */
function measure(run: () => unknown, repeats: number): number {
  return measureBoth(run, repeats).medianMs;
}

function measureBoth(run: () => unknown, repeats: number): { medianMs: number; minMs: number } {
  for (let i = 0; i < 3; i += 1) run();
  const times: number[] = [];
  for (let i = 0; i < repeats; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return { medianMs: median(times), minMs: Math.min(...times) };
}

let passMs = 0;
for (const mode of ["steady", "churn"] as const) {
  const input = makeInput(5000, 200, mode);
  const timing = measureBoth(() => runSchedulePass(input), 61);
  const sample = runSchedulePass(input);
  passMs = Math.max(passMs, timing.medianMs);
  console.log(
    `pass (${mode}): 128 x 8 GPUs, ${input.pending.length} pending, ${input.runs.length} running, ` +
      `200 leaves -> ${sample.starts.length} starts, ${sample.preemptions.length} preemptions: ` +
      `median ${timing.medianMs.toFixed(2)} ms, min ${timing.minMs.toFixed(2)} ms (budget 20 ms)`,
  );
}

const bigQueue = makeInput(100_000, 200);
const ranking = rankBudgets(bigQueue.tree, bigQueue.leafUsage, {
  capacityGpus: 1024,
  windowSec: 604800,
});
const rankOf = (budgetId: string): number =>
  ranking.rankByBudgetId[budgetId] ?? ranking.leafCount + 1;
const order = measureBoth(
  () => orderQueue(bigQueue.pending, rankOf, (job) => job.minRuntimeSec > 0),
  21,
);
const orderMs = order.medianMs;
console.log(
  `ordering: 100,000 pending, 200 leaves: median ${orderMs.toFixed(2)} ms, ` +
    `min ${order.minMs.toFixed(2)} ms (budget 100 ms)`,
);
const rankMs = measure(
  () => rankBudgets(bigQueue.tree, bigQueue.leafUsage, { capacityGpus: 1024, windowSec: 604800 }),
  41,
);
console.log(`Fair Tree ranking alone, 200 leaves: median ${rankMs.toFixed(3)} ms`);
console.log(
  `load average while measuring: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}`,
);

console.log("\nscaling: one churn pass, median / min ms");
console.log("| pending \\ leaves | 20 | 200 | 2,000 |");
console.log("|---|---|---|---|");
for (const pendingCount of [1000, 5000, 20_000, 100_000]) {
  const cells = [20, 200, 2000].map((leaves) => {
    const input = makeInput(pendingCount, leaves);
    const timing = measureBoth(() => runSchedulePass(input), pendingCount >= 20_000 ? 9 : 21);
    return `${timing.medianMs.toFixed(1)} / ${timing.minMs.toFixed(1)}`;
  });
  console.log(`| ${pendingCount.toLocaleString("en-US")} | ${cells.join(" | ")} |`);
}
if (passMs > 20 || orderMs > 100) {
  console.error("Over budget.");
  process.exitCode = 1;
}
