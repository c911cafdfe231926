// npx tsx scripts/headline/demo-month.ts [--days 35]
// - the demo's seeded history (prisma/seed.ts: the lab workload of seed 2026 over 35 days on the
// demo org's clusters), simulated without a database; prints the simulator's report over it:
// period fulfilment, budgets at 95% or more, and the least served budgets with their demand.
import { simulateLabHistory, HISTORY_DAYS } from "../../lib/demo/lab-history";
import { buildLabOrg, DEMO_ORG_SEED } from "../../lib/demo/lab-org";
import { buildReport } from "../../lib/sim";
import { formatShare } from "../../lib/format";

const DEMO_HISTORY_SEED = 2026;
const args = process.argv.slice(2);
const daysAt = args.indexOf("--days");
const days = daysAt >= 0 ? Number(args[daysAt + 1]) : HISTORY_DAYS;
const org = buildLabOrg(DEMO_ORG_SEED);
const endSec = 1_780_000_000;
const history = simulateLabHistory({ org, endSec, seed: DEMO_HISTORY_SEED, days });
const report = buildReport(history.scenario, history.result);
const funded = report.budgets.filter((b) => b.effectiveShare > 0 && b.fulfilment !== null);
const atLeast95 = funded.filter((b) => b.fulfilment! >= 0.95).length;
console.log(
  `period fulfilment ${formatShare(report.fulfilment)}, ${atLeast95} of ${funded.length} funded budgets at 95% or more, utilisation ${(report.utilisation * 100).toFixed(1)}%`,
);
for (const b of [...funded].sort((a, b) => a.fulfilment! - b.fulfilment!).slice(0, 12)) {
  console.log(
    `  ${(b.fulfilment! * 100).toFixed(1).padStart(5)}%  ${b.path.padEnd(40)} share ${(b.effectiveShare * 100).toFixed(2)}%  entitled ${b.entitledGpuHours.toFixed(0)}  received ${b.receivedGpuHours.toFixed(0)}`,
  );
}

// The least served budgets, hour by hour: what they asked for, were owed and got, per cluster.
const HOUR = 3600;
const horizonSec = report.horizonSec;
const hours = Math.ceil(horizonSec / HOUR);
for (const b of [...funded].sort((a, b) => a.fulfilment! - b.fulfilment!).slice(0, 3)) {
  const records = history.result.jobs.filter((r) => r.job.budgetId === b.path);
  console.log(`\n${b.path}: ${records.length} jobs`);
  const byCluster = new Map<string, { demand: Float64Array; received: Float64Array }>();
  for (const r of records) {
    const c = byCluster.get(r.job.cluster) ?? {
      demand: new Float64Array(hours),
      received: new Float64Array(hours),
    };
    byCluster.set(r.job.cluster, c);
    const endSec = r.endSec ?? horizonSec;
    for (let h = Math.floor(r.job.submitSec / HOUR); h < hours && h * HOUR < endSec; h += 1) {
      const from = Math.max(h * HOUR, r.job.submitSec);
      const to = Math.min((h + 1) * HOUR, endSec);
      if (to > from) c.demand[h]! += (r.job.gpus * (to - from)) / HOUR;
    }
    for (const run of r.runs) {
      for (let h = Math.floor(run.startSec / HOUR); h < hours && h * HOUR < run.endSec; h += 1) {
        const from = Math.max(h * HOUR, run.startSec);
        const to = Math.min((h + 1) * HOUR, run.endSec);
        if (to > from) c.received[h]! += (run.gpus * (to - from)) / HOUR;
      }
    }
    const wait =
      r.firstStartSec === null
        ? "never"
        : `${((r.firstStartSec - r.job.submitSec) / 3600).toFixed(1)} h`;
    if (r.job.jobClass !== "debug") {
      console.log(
        `  ${r.job.id} ${r.job.cluster} ${r.job.jobClass} ${r.job.gpus} GPUs, submit day ${(r.job.submitSec / 86400).toFixed(1)}, work ${(r.job.workSec / 3600).toFixed(1)} h, min ${(r.job.minRuntimeSec / 3600).toFixed(1)} h, wait ${wait}, runs ${r.runs.length}, state ${r.state}`,
      );
    }
  }
  for (const [cluster, c] of byCluster) {
    const spec = history.scenario.clusters.find((x) => x.name === cluster)!;
    const cap = b.effectiveShare * spec.nodes * spec.gpusPerNode;
    let demand = 0;
    let entitled = 0;
    let received = 0;
    let starvedHours = 0;
    for (let h = 0; h < hours; h += 1) {
      demand += c.demand[h]!;
      entitled += Math.min(cap, c.demand[h]!);
      received += c.received[h]!;
      if (c.demand[h]! > 0 && c.received[h]! === 0) starvedHours += 1;
    }
    console.log(
      `  ${cluster}: share x capacity ${cap.toFixed(2)} GPUs; demand ${demand.toFixed(0)}, entitled ${entitled.toFixed(0)}, received ${received.toFixed(0)} GPU-h; ${starvedHours} hours with demand and nothing received`,
    );
  }
}
