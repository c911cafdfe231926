import { formatDurationSec } from "./duration";
import { buildLabOrg, DEMO_ORG_SEED, type LabOrg } from "../demo/lab-org";
import { listLabProjects, listLabPrograms, type LabProject } from "./lab-org";
import { planLabMaintenance } from "./lab-maintenance";
import { createRandom, type Random } from "./random";
import type { SimCluster } from "./scenario";
import type { ScenarioFile, ScenarioFileJob } from "./scenario-schema";

/** The lab's clusters (DESIGN section 1): 1,024 H100, 512 B200 and 88 B300 GPUs. */
export const LAB_CLUSTERS: SimCluster[] = [
  { name: "h100", gpuType: "H100", nodes: 128, gpusPerNode: 8 },
  { name: "b200", gpuType: "B200", nodes: 64, gpusPerNode: 8 },
  { name: "b300", gpuType: "B300", nodes: 11, gpusPerNode: 8 },
];

/** Options of {@link generateLabScenario}. */
export type LabWorkloadOptions = {
  days: number;
  seed: number;
  /** Clusters, largest first; default {@link LAB_CLUSTERS}. */
  clusters?: SimCluster[];
  /** Training work offered per second as a multiple of capacity; default 1.1. */
  loadFactor?: number;
  /** The organisation whose leaves and members submit; default the seeded demo lab. */
  org?: LabOrg;
};

const DAY_SEC = 86_400;
/** Debug jobs per GPU per day, interactive sessions per GPU per day (lab-wide habits). */
const DEBUG_PER_GPU_DAY = 0.55;
const INTERACTIVE_PER_GPU_DAY = 0.04;
const OPPORTUNISTIC_SHARE = 0.08;

type Draft = Omit<ScenarioFileJob, "id"> & { submit: number };

/** Busier in working hours: accept an arrival at time t with this probability. */
function isWorkingHour(random: Random, atSec: number): boolean {
  const hour = (atSec % DAY_SEC) / 3600;
  const weekday = Math.floor(atSec / DAY_SEC) % 7 < 5;
  return random.chance(weekday && hour >= 8 && hour < 20 ? 1 : 0.25);
}

function pickWeighted<T>(random: Random, items: readonly T[], weightOf: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weightOf(item), 0);
  let x = random.next() * total;
  for (const item of items) {
    x -= weightOf(item);
    if (x < 0) return item;
  }
  return items[items.length - 1] as T;
}

function trainingJob(
  random: Random,
  project: LabProject,
  cluster: SimCluster,
  submit: number,
): Draft {
  const total = cluster.nodes * cluster.gpusPerNode;
  const sizes = [8, 16, 32, 64, 128].filter((gpus) => gpus <= total / 2);
  const gpus = pickWeighted(random, sizes, (size) => 1 / Math.sqrt(size));
  const researcher = random.pick(project.researchers);
  const level = random.next();
  return {
    budget: researcher.budget,
    cluster: cluster.name,
    user: researcher.user,
    submit,
    gpus,
    work: Math.round(random.logUniform(4 * 3600, 3 * DAY_SEC)),
    minRuntime: formatDurationSec(3600 * random.int(1, 8)),
    resumable: random.chance(0.9),
    priority: level < 0.2 ? "high" : level < 0.9 ? "normal" : "low",
    class: "training",
    baseline: { priority: level < 0.75 ? "high" : "normal", preemptible: random.chance(0.4) },
  };
}

function smallJob(
  random: Random,
  kind: string,
  project: LabProject,
  cluster: SimCluster,
  submit: number,
): Draft {
  const researcher = random.pick(project.researchers);
  const base = { budget: researcher.budget, cluster: cluster.name, user: researcher.user, submit };
  if (kind === "debug") {
    return {
      ...base,
      gpus: random.pick([1, 1, 2, 4, 8]),
      work: Math.round(random.logUniform(120, 1800)),
      minRuntime: formatDurationSec(60 * random.pick([5, 10, 15])),
      resumable: false,
      priority: "high",
      class: "debug",
      baseline: {
        priority: random.chance(0.5) ? "high" : "normal",
        preemptible: random.chance(0.5),
      },
    };
  }
  if (kind === "interactive") {
    const work = 3600 * random.int(1, 4);
    return {
      ...base,
      gpus: random.pick([1, 2, 4, 8]),
      work,
      minRuntime: formatDurationSec(work),
      resumable: false,
      priority: "high",
      class: "interactive",
      baseline: { priority: "high", preemptible: false },
    };
  }
  return {
    ...base,
    gpus: random.pick([8, 16, 32]),
    work: Math.round(random.logUniform(3600, 12 * 3600)),
    minRuntime: 0,
    resumable: true,
    priority: "low",
    class: "opportunistic",
    baseline: { priority: "low", preemptible: true },
  };
}

/**
 * A synthetic month (or any number of days) of the lab of DESIGN section 1, seeded: the same
 * options give the same scenario. Its tree, budgets and users are the demo lab's (the database
 * seed's organisation; users are emails), so a simulated history fits the seeded tree. Demand stays 2-3x supply: a backlog of training work (1.5x
 * each cluster's GPUs) at the start, then training offered at `loadFactor` x capacity, debug
 * jobs (<= 8 GPUs, min runtime <= 15 min, minutes of work) in working hours, interactive
 * sessions, and some min-runtime-0 opportunistic jobs; planned node drains and rare failures
 * (see planLabMaintenance). The baseline fields inflate priorities
 * (most jobs `high`, many non-preemptible) and cap each program's non-preemptible GPUs.
 *
 * @example generateLabScenario({ days: 30, seed: 1 }).jobs.length // tens of thousands
 */
export function generateLabScenario(options: LabWorkloadOptions): ScenarioFile {
  const random = createRandom(options.seed);
  const clusters = options.clusters ?? LAB_CLUSTERS;
  const horizonSec = options.days * DAY_SEC;
  const loadFactor = options.loadFactor ?? 1.1;
  const org = options.org ?? buildLabOrg(DEMO_ORG_SEED);
  const { tree, projects } = listLabProjects(
    org,
    random,
    clusters.map((cluster) => cluster.name),
  );
  const drafts: Draft[] = [];
  for (const cluster of clusters) {
    const gpus = cluster.nodes * cluster.gpusPerNode;
    const users = projects.filter((p) => p.clusters.some((c) => c.name === cluster.name));
    const pull = (p: LabProject) =>
      p.effectiveShare * p.appetite * (p.clusters.find((c) => c.name === cluster.name)?.part ?? 0);
    let backlog = 0;
    while (backlog < 1.5 * gpus) {
      const job = trainingJob(
        random,
        pickWeighted(random, users, pull),
        cluster,
        random.int(0, 3600),
      );
      backlog += job.gpus;
      drafts.push(job);
    }
    let offered = 0;
    const budgetSec = loadFactor * gpus * horizonSec;
    while (offered < budgetSec * (1 - OPPORTUNISTIC_SHARE)) {
      const job = trainingJob(
        random,
        pickWeighted(random, users, pull),
        cluster,
        random.int(0, horizonSec - 1),
      );
      offered += job.gpus * Number(job.work);
      drafts.push(job);
    }
    for (const [kind, perGpuDay] of [
      ["debug", DEBUG_PER_GPU_DAY],
      ["interactive", INTERACTIVE_PER_GPU_DAY],
    ] as const) {
      const count = Math.round(perGpuDay * gpus * options.days);
      for (let made = 0; made < count;) {
        const submit = random.int(0, horizonSec - 1);
        if (!isWorkingHour(random, submit)) continue;
        drafts.push(smallJob(random, kind, pickWeighted(random, users, pull), cluster, submit));
        made++;
      }
    }
    let free = 0;
    while (free < OPPORTUNISTIC_SHARE * budgetSec) {
      const job = smallJob(
        random,
        "opportunistic",
        pickWeighted(random, users, pull),
        cluster,
        random.int(0, horizonSec - 1),
      );
      free += job.gpus * Number(job.work);
      drafts.push(job);
    }
  }
  drafts.sort((a, b) => a.submit - b.submit);
  const largest = Math.max(...clusters.map((cluster) => cluster.nodes * cluster.gpusPerNode));
  const weightTotal = listLabPrograms(org).reduce((sum, program) => sum + program.weight, 0);
  const caps = Object.fromEntries(
    listLabPrograms(org).map((program) => [
      program.name,
      Math.round((program.weight / weightTotal) * largest),
    ]),
  );
  return {
    clusters: clusters.map((cluster) => ({ ...cluster })),
    tree,
    settings: { lookback: "7d", maxMinRuntime: "8h" },
    jobs: drafts.map((draft, i) => ({ id: `j${String(i + 1).padStart(6, "0")}`, ...draft })),
    nodeEvents: planLabMaintenance(random, clusters, horizonSec),
    baseline: { nonPreemptibleGpuCap: caps },
    horizon: formatDurationSec(horizonSec),
  };
}
