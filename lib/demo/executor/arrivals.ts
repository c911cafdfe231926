// The demo's arrivals: the simulator's lab workload (lib/sim), which submits from the seeded
// demo lab's leaves, matched to their ids and members. Pure: the leaves are an argument.
import { parseDurationSec } from "../../sim/duration";
import { generateLabScenario } from "../lab-workload";
import type { SubmitJobInput } from "../../validation/jobs";

/** A leaf of the demo tree and the people who may charge it. */
export type DemoLeaf = { id: string; path: string; memberIds: string[] };

/** One arrival: seconds into the workload's week, who submits what. */
export type Arrival = { offsetSec: number; userId: string; input: SubmitJobInput };

export const WORKLOAD_DAYS = 7;
export const WORKLOAD_SEC = WORKLOAD_DAYS * 86_400;

function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i += 1) value = Math.imul(value ^ text.charCodeAt(i), 16777619);
  return value >>> 0;
}

/**
 * A week of the lab profile for the clusters named, seeded: the workload submits from the demo
 * lab's own leaves (lib/demo/lab-workload.ts), so a job goes to the leaf of its path, submitted by one
 * of that leaf's members (by hash of its simulated user). Jobs of a leaf that is gone or has no
 * member are dropped (a lead removed or emptied it). Sorted by offset.
 *
 * @example buildArrivals(leaves, ["h100"], 2026).length // a few thousand
 */
export function buildArrivals(
  leaves: readonly DemoLeaf[],
  clusters: readonly { name: string; nodes: number; gpusPerNode: number; gpuType: string }[],
  seed: number,
): Arrival[] {
  const scenario = generateLabScenario({ days: WORKLOAD_DAYS, seed, clusters: [...clusters] });
  const leafOf = new Map(
    leaves.filter((leaf) => leaf.memberIds.length > 0).map((leaf) => [leaf.path, leaf]),
  );
  const arrivals: Arrival[] = [];
  for (const job of scenario.jobs) {
    const leaf = leafOf.get(job.budget);
    if (!leaf) continue;
    const userId = leaf.memberIds[hash(job.user ?? job.id) % leaf.memberIds.length]!;
    const minRuntimeSec = parseDurationSec(job.minRuntime ?? 0) ?? 0;
    arrivals.push({
      offsetSec: Number(job.submit),
      userId,
      input: {
        cluster: job.cluster,
        budgetId: leaf.id,
        name: `${job.class ?? "training"}-${job.id}`,
        gpus: job.gpus,
        minRuntimeSec: Math.min(minRuntimeSec, 8 * 3600),
        isResumable: job.resumable ?? true,
        priority: job.priority ?? "normal",
        workSec: Math.max(60, Math.round(parseDurationSec(job.work) ?? 3600)),
      },
    });
  }
  return arrivals.sort((a, b) => a.offsetSec - b.offsetSec);
}
