// The demo's arrivals: the simulator's lab workload (lib/sim), with its budgets and users
// mapped onto the seeded demo lab's leaves and members. Pure: the org is an argument.
import { parseDurationSec } from "../sim/duration";
import { generateLabScenario } from "../sim/workload";
import type { SubmitJobInput } from "../validation/jobs";

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
 * A week of the lab profile for the clusters named, seeded, mapped onto `leaves`: a simulated
 * program maps to the demo program at the same position, a project to one of its projects by
 * name hash, a researcher to a member of that leaf. Sorted by offset.
 *
 * @example buildArrivals(leaves, ["h100"], 2026).length // a few thousand
 */
export function buildArrivals(
  leaves: readonly DemoLeaf[],
  clusters: readonly { name: string; nodes: number; gpusPerNode: number; gpuType: string }[],
  seed: number,
): Arrival[] {
  const scenario = generateLabScenario({ days: WORKLOAD_DAYS, seed, clusters: [...clusters] });
  const programs = [...new Set(leaves.map((leaf) => leaf.path.split("/")[0]!))];
  const simPrograms = [...new Set(scenario.jobs.map((job) => job.budget.split("/")[0]!))].sort();
  const leavesOf = new Map<string, DemoLeaf[]>();
  for (const leaf of leaves) {
    if (leaf.memberIds.length === 0) continue;
    const program = leaf.path.split("/")[0]!;
    leavesOf.set(program, [...(leavesOf.get(program) ?? []), leaf]);
  }
  const arrivals: Arrival[] = [];
  for (const job of scenario.jobs) {
    const [simProgram = "", simProject = ""] = job.budget.split("/");
    const program = programs[simPrograms.indexOf(simProgram) % programs.length] ?? programs[0]!;
    const candidates = leavesOf.get(program) ?? [];
    if (candidates.length === 0) continue;
    const leaf = candidates[hash(`${simProject}/${job.user}`) % candidates.length]!;
    const userId = leaf.memberIds[hash(job.user ?? job.id ?? "") % leaf.memberIds.length]!;
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
