// npx tsx scripts/headline/debug-waits.ts <scenario.json> [--min-wait 600] [--job <id>]
// - issue #32's diagnosis: replays a scenario under the allocation scheduler, every pass with its
// wait reasons written (the same decisions: `describeWaits` only adds reasons), and says why each
// debug job waited. Between two passes a waiting debug job is blocked by the first of these that
// would have let it start, cluster-wide: the reservation (it fits on free GPUs kept for a gang
// job); reserved victims (free plus preemptable GPUs would do, yet it was not started: the
// victims sit on reserved nodes, or the pass skipped it after a failure of its size); the share
// guard (free + shielded GPUs would do); protection (... + protected GPUs of budgets ranked
// below); else budgets ranked at or above it. Also the idle GPU-hours, the part of them on nodes
// kept for a reservation, by how far off the reservation's ready time was. `--job` prints one
// job's wait reason every 12 hours.
import { readFileSync } from "node:fs";
import { runSchedulePass, validateBudgetTree, type WaitReason } from "../../lib/engine";
import {
  parseScenario,
  RERANK_INTERVAL_SEC,
  runSimulation,
  type Scheduler,
  type SchedulerFactory,
} from "../../lib/sim";

type Cause =
  "reservation" | "reserved-victims" | "share-guard" | "protection" | "higher-ranked" | "fragments";
const CAUSES: Cause[] = [
  "reservation",
  "reserved-victims",
  "share-guard",
  "protection",
  "higher-ranked",
  "fragments",
];

type Waiting = {
  jobId: string;
  cause: Cause;
  rank: number;
  gpus: number;
  shielded: number;
  protectedBelow: number;
  heldByHigher: number;
};

const args = process.argv.slice(2);
const minWaitAt = args.indexOf("--min-wait");
const minWaitSec = minWaitAt >= 0 ? Number(args[minWaitAt + 1]) : 600;
const parsed = parseScenario(JSON.parse(readFileSync(args[0]!, "utf8")));
if (!parsed.ok) throw new Error("invalid scenario");
const scenario = parsed.value;
const checked = validateBudgetTree(scenario.tree);
if (!checked.ok) throw new Error("invalid tree");
const tree = checked.value;
const jobAt = args.indexOf("--job");
const traced = jobAt >= 0 ? args[jobAt + 1]! : null;
let tracedNextSec = 0;
const isDebug = new Set(scenario.jobs.filter((j) => j.jobClass === "debug").map((j) => j.id));

const secByJob = new Map<string, Record<Cause, number>>();
const gpuSecByCause = { shielded: 0, protectedBelow: 0, heldByHigher: 0 };
let idleGpuSec = 0;
let idleReservedGpuSec = 0;
let idleWithAllocatedWaitingGpuSec = 0;
let capacityGpuSec = 0;
let idlePartialGpuSec = 0;
let last: {
  atSec: number;
  waiting: Waiting[];
  idle: number;
  idleReserved: number;
  idlePartial: number;
  capacity: number;
  hasWaiting: boolean;
  readyInSec: number | null;
} | null = null;
const idleReservedBy = { unknown: 0, under1h: 0, under4h: 0, later: 0 };

function classify(reason: WaitReason, nowSec: number): Omit<Waiting, "jobId"> | null {
  if (reason.rule === "wait-reservation") {
    return {
      cause: "reservation",
      rank: reason.budgetsAbove + 1,
      gpus: reason.needGpus,
      shielded: 0,
      protectedBelow: 0,
      heldByHigher: 0,
    };
  }
  if (reason.rule !== "wait-resources") return null;
  const { freeGpus, heldWithinShareGpus, protectedGpus, needGpus } = reason;
  const cause: Cause =
    freeGpus >= needGpus
      ? "fragments"
      : reason.readyAtSec === nowSec
        ? "reserved-victims"
        : freeGpus + heldWithinShareGpus >= needGpus
          ? "share-guard"
          : freeGpus + heldWithinShareGpus + protectedGpus >= needGpus
            ? "protection"
            : "higher-ranked";
  return {
    cause,
    rank: reason.budgetsAbove + 1,
    gpus: needGpus,
    shielded: heldWithinShareGpus,
    protectedBelow: protectedGpus,
    heldByHigher: reason.heldByHigherGpus,
  };
}

const factory: SchedulerFactory = (): Scheduler => ({
  name: "allocation",
  plan(view) {
    if (last) {
      const sec = view.nowSec - last.atSec;
      for (const w of last.waiting) {
        let byCause = secByJob.get(w.jobId);
        if (!byCause) {
          byCause = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>;
          secByJob.set(w.jobId, byCause);
        }
        byCause[w.cause] += sec;
        gpuSecByCause.shielded += w.shielded * sec;
        gpuSecByCause.protectedBelow += w.protectedBelow * sec;
        gpuSecByCause.heldByHigher += w.heldByHigher * sec;
      }
      idleGpuSec += last.idle * sec;
      idleReservedGpuSec += last.idleReserved * sec;
      idlePartialGpuSec += last.idlePartial * sec;
      const r = last.readyInSec;
      const bucket =
        r === null ? "unknown" : r < 3600 ? "under1h" : r < 4 * 3600 ? "under4h" : "later";
      idleReservedBy[bucket] += last.idleReserved * sec;
      if (last.hasWaiting) idleWithAllocatedWaitingGpuSec += last.idle * sec;
      capacityGpuSec += last.capacity * sec;
    }
    const result = runSchedulePass({
      cluster: view.cluster,
      nowSec: view.nowSec,
      tree,
      leafUsage: view.usageByLeaf,
      runs: view.running,
      pending: view.pending,
    });
    const free = [...view.freeGpus];
    for (const start of result.starts) for (const s of start.placement) free[s.node]! -= s.gpus;
    const byRunId = new Map(view.running.map((run) => [run.id, run]));
    for (const p of result.preemptions) {
      for (const s of byRunId.get(p.runId)?.placement ?? []) free[s.node]! += s.gpus;
    }
    let reservedNodes: number[] = [];
    let readyInSec: number | null = null;
    const waiting: Waiting[] = [];
    for (const wait of result.waiting) {
      const reason = wait.reason;
      if (reason.rule === "wait-resources" && reason.reservedNodes.length > 0) {
        reservedNodes = reason.reservedNodes;
        readyInSec = reason.readyAtSec === null ? null : reason.readyAtSec - view.nowSec;
      }
      if (wait.jobId === traced && view.nowSec >= tracedNextSec) {
        tracedNextSec = view.nowSec + 12 * 3600;
        const { budget, ...rest } = reason as WaitReason & { budget: unknown };
        console.log(
          `${(view.nowSec / 86400).toFixed(2)}d`,
          JSON.stringify({ budget, ...rest }).slice(0, 600),
        );
      }
      if (!isDebug.has(wait.jobId)) continue;
      const c = classify(reason, view.nowSec);
      if (c) waiting.push({ jobId: wait.jobId, ...c });
    }
    let idle = 0;
    let idlePartial = 0;
    let capacity = 0;
    const reservedSet = new Set(reservedNodes);
    view.cluster.nodes.forEach((node, i) => {
      if (node.health !== "healthy") return;
      idle += free[i]!;
      if (!reservedSet.has(i) && free[i]! < node.gpus) idlePartial += free[i]!;
      capacity += node.gpus;
    });
    const idleReserved = reservedNodes.reduce((sum, node) => sum + free[node]!, 0);
    last = {
      readyInSec,
      atSec: view.nowSec,
      waiting,
      idle,
      idleReserved,
      idlePartial,
      capacity,
      hasWaiting: result.waitingCounts.allocated > 0,
    };
    return {
      starts: result.starts,
      preemptions: result.preemptions,
      wakeAtSec: result.waitingCounts.allocated > 0 ? view.nowSec + RERANK_INTERVAL_SEC : null,
    };
  },
});

const sim = runSimulation(scenario, factory);
const waits = sim.jobs
  .filter((record) => isDebug.has(record.job.id))
  .map((record) => ({
    id: record.job.id,
    gpus: record.job.gpus,
    waitSec: (record.runs[0]?.startSec ?? sim.horizonSec) - record.job.submitSec,
  }));
waits.sort((a, b) => a.waitSec - b.waitSec);
const p = (q: number): number =>
  waits[Math.min(waits.length - 1, Math.ceil(q * waits.length) - 1)]!.waitSec;
console.log(`debug jobs ${waits.length}, wait p50 ${p(0.5)} s, p90 ${p(0.9)} s`);
const long = waits.filter((w) => w.waitSec > minWaitSec);
const total = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>;
const dominant = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>;
for (const w of long) {
  const byCause = secByJob.get(w.id);
  if (!byCause) continue;
  let best: Cause = "higher-ranked";
  for (const c of CAUSES) {
    total[c] += byCause[c];
    if (byCause[c] > byCause[best]) best = c;
  }
  dominant[best] += 1;
}
const all = CAUSES.reduce((sum, c) => sum + total[c], 0);
console.log(
  `debug jobs waiting over ${minWaitSec} s: ${long.length}; their waiting hours by cause:`,
);
for (const c of CAUSES) {
  console.log(
    `  ${c.padEnd(17)} ${(total[c] / 3600).toFixed(1).padStart(8)} h  ${((100 * total[c]) / all).toFixed(1).padStart(5)}%   dominant for ${dominant[c]} jobs`,
  );
}
const bySize = new Map<number, { n: number; long: number }>();
for (const w of waits) {
  const s = bySize.get(w.gpus) ?? { n: 0, long: 0 };
  s.n += 1;
  if (w.waitSec > minWaitSec) s.long += 1;
  bySize.set(w.gpus, s);
}
console.log(
  `long waits by size: ${[...bySize]
    .sort((a, b) => a[0] - b[0])
    .map(([g, s]) => `${g} GPU ${s.long}/${s.n}`)
    .join(", ")}`,
);
console.log(
  `GPU-hours seen by waiting debug jobs (summed over jobs): shielded ${(gpuSecByCause.shielded / 3600).toFixed(0)}, protected below ${(gpuSecByCause.protectedBelow / 3600).toFixed(0)}, held at or above ${(gpuSecByCause.heldByHigher / 3600).toFixed(0)}`,
);
console.log(
  `idle: ${(idleGpuSec / 3600).toFixed(0)} GPU-h of ${(capacityGpuSec / 3600).toFixed(0)} (${((100 * idleGpuSec) / capacityGpuSec).toFixed(2)}%); while allocated jobs wait ${(idleWithAllocatedWaitingGpuSec / 3600).toFixed(0)}; on nodes kept for a reservation ${(idleReservedGpuSec / 3600).toFixed(0)}; on partly busy nodes not kept ${(idlePartialGpuSec / 3600).toFixed(0)}`,
);
console.log(
  `idle on reserved nodes by the reservation's ready time: ${Object.entries(idleReservedBy)
    .map(([k, v]) => `${k} ${(v / 3600).toFixed(0)}`)
    .join(", ")} GPU-h`,
);
