import { formatDurationSec } from "../sim/duration";
import { buildLabOrg, DEMO_ORG_SEED, type LabOrg } from "./lab-org";
import { listLabProjects, listLabPrograms, type LabProject } from "./lab-projects";
import { planLabMaintenance } from "./lab-maintenance";
import { createRandom, type Random } from "../sim/random";
import type { SimCluster } from "../sim/scenario";
import type { ScenarioFile, ScenarioFileJob } from "../sim/scenario-schema";

/** The character of a synthetic workload: its clusters, load and mix of jobs. */
export type WorkloadProfile = {
  /** Clusters, largest first. */
  clusters: SimCluster[];
  /** Training work offered per second as a multiple of capacity. */
  loadFactor: number;
  /** The largest training job, in GPUs (sizes are 8, 16, 32... up to half the cluster). */
  maxTrainingGpus: number;
  /** Training minimum runtimes: whole hours from ... to ... */
  trainingMinRuntimeHours: readonly [number, number];
  /** Who submits training: by each project's share and appetite, or every project alike. */
  demand: "by-share" | "even";
  /** Debug jobs and interactive sessions per GPU per day, in working hours. */
  debugPerGpuDay: number;
  interactivePerGpuDay: number;
  /** Debug minimum runtimes to pick from, minutes. */
  debugMinRuntimeMinutes: readonly number[];
  /** The part of the offered work that is free (minimum runtime 0, opportunistic). */
  opportunisticShare: number;
};

/** The lab of docs/simulations.md: three clusters, demand by share, a busy debug habit. */
export const LAB_PROFILE: WorkloadProfile = {
  clusters: [
    { name: "h100", gpuType: "H100", nodes: 128, gpusPerNode: 8 },
    { name: "b200", gpuType: "B200", nodes: 64, gpusPerNode: 8 },
    { name: "b300", gpuType: "B300", nodes: 11, gpusPerNode: 8 },
  ],
  loadFactor: 1.1,
  maxTrainingGpus: 128,
  trainingMinRuntimeHours: [1, 8],
  demand: "by-share",
  debugPerGpuDay: 0.55,
  interactivePerGpuDay: 0.04,
  debugMinRuntimeMinutes: [5, 10, 15],
  opportunisticShare: 0.08,
};

/** The lab's clusters: 1,024 H100, 512 B200 and 88 B300 GPUs. */
export const LAB_CLUSTERS: SimCluster[] = LAB_PROFILE.clusters;

/**
 * Issue #32's unseen lab-like workload: one cluster of 40 nodes x 8 GPUs; whole-node training
 * of 8-64 GPUs with minimum runtimes of 2-8 h offering 2.5x the capacity, spread over the
 * projects regardless of their weights; about 60 debug jobs a day of 1-8 GPUs with a 15-minute
 * minimum runtime; a few free jobs.
 */
export const LAB_WHOLE_NODE_PROFILE: WorkloadProfile = {
  clusters: [{ name: "c40", gpuType: "H100", nodes: 40, gpusPerNode: 8 }],
  loadFactor: 2.5,
  maxTrainingGpus: 64,
  trainingMinRuntimeHours: [2, 8],
  demand: "even",
  debugPerGpuDay: 60 / 320,
  interactivePerGpuDay: 0,
  debugMinRuntimeMinutes: [15],
  opportunisticShare: 0.02,
};

/** The profiles `allot generate --profile` knows. */
export const WORKLOAD_PROFILES: Record<string, WorkloadProfile> = {
  lab: LAB_PROFILE,
  "lab-whole-node": LAB_WHOLE_NODE_PROFILE,
};

/** Options of {@link generateLabScenario}. */
export type LabWorkloadOptions = {
  days: number;
  seed: number;
  /** The workload's character; default {@link LAB_PROFILE}. */
  profile?: WorkloadProfile;
  /** Clusters, largest first; default the profile's. */
  clusters?: SimCluster[];
  /** Training work offered per second as a multiple of capacity; default the profile's. */
  loadFactor?: number;
  /** The organisation whose leaves and members submit; default the seeded demo lab. */
  org?: LabOrg;
};

const DAY_SEC = 86_400;

type Draft = Omit<ScenarioFileJob, "id"> & { submit: number };

/** Busier in working hours: accept an arrival at time t with this probability. */
function isWorkingHour(random: Random, atSec: number): boolean {
  const hour = (atSec % DAY_SEC) / 3600;
  const weekday = Math.floor(atSec / DAY_SEC) % 7 < 5;
  return random.chance(weekday && hour >= 8 && hour < 20 ? 1 : 0.25);
}

/** Items with their weights and the weights' total (summed in order), for repeated picks. */
type WeightedItems<T> = { items: readonly T[]; weights: number[]; total: number };

function weighItems<T>(items: readonly T[], weightOf: (item: T) => number): WeightedItems<T> {
  const weights = items.map(weightOf);
  return { items, weights, total: weights.reduce((sum, weight) => sum + weight, 0) };
}

function pickWeighted<T>(random: Random, { items, weights, total }: WeightedItems<T>): T {
  let x = random.next() * total;
  for (let i = 0; i < items.length; i++) {
    x -= weights[i] as number;
    if (x < 0) return items[i] as T;
  }
  return items[items.length - 1] as T;
}

/** Training job sizes (GPUs) up to half the cluster and `maxGpus`, smaller ones more often. */
function weighTrainingSizes(cluster: SimCluster, maxGpus: number): WeightedItems<number> {
  const total = cluster.nodes * cluster.gpusPerNode;
  const sizes = [8, 16, 32, 64, 128].filter((gpus) => gpus <= total / 2 && gpus <= maxGpus);
  return weighItems(sizes, (size) => 1 / Math.sqrt(size));
}

function trainingJob(
  random: Random,
  profile: WorkloadProfile,
  project: LabProject,
  cluster: SimCluster,
  sizes: WeightedItems<number>,
  submit: number,
): Draft {
  const [minHours, maxHours] = profile.trainingMinRuntimeHours;
  const gpus = pickWeighted(random, sizes);
  const researcher = random.pick(project.researchers);
  const level = random.next();
  return {
    budget: researcher.budget,
    cluster: cluster.name,
    user: researcher.user,
    submit,
    gpus,
    work: Math.round(random.logUniform(4 * 3600, 3 * DAY_SEC)),
    minRuntime: formatDurationSec(3600 * random.int(minHours, maxHours)),
    resumable: random.chance(0.9),
    priority: level < 0.2 ? "high" : level < 0.9 ? "normal" : "low",
    class: "training",
    baseline: { priority: level < 0.75 ? "high" : "normal", preemptible: random.chance(0.4) },
  };
}

// Every draft is one literal with the same keys in the same order (no spread), so the million
// drafts of a year share one shape and sorting and copying them stays fast.
function smallJob(
  random: Random,
  profile: WorkloadProfile,
  kind: string,
  project: LabProject,
  cluster: SimCluster,
  submit: number,
): Draft {
  const { budget, user } = random.pick(project.researchers);
  if (kind === "debug") {
    return {
      budget,
      cluster: cluster.name,
      user,
      submit,
      gpus: random.pick([1, 1, 2, 4, 8]),
      work: Math.round(random.logUniform(120, 1800)),
      minRuntime: formatDurationSec(60 * random.pick(profile.debugMinRuntimeMinutes)),
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
      budget,
      cluster: cluster.name,
      user,
      submit,
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
    budget,
    cluster: cluster.name,
    user,
    submit,
    gpus: random.pick([8, 16, 32]),
    work: Math.round(random.logUniform(3600, 12 * 3600)),
    minRuntime: 0,
    resumable: true,
    priority: "low",
    class: "opportunistic",
    baseline: { priority: "low", preemptible: true },
  };
}

/** The job of a draft, with its id first: one literal (a spread would be slow for a year). */
function withId(id: string, draft: Draft): ScenarioFileJob {
  return {
    id,
    budget: draft.budget,
    cluster: draft.cluster,
    user: draft.user,
    submit: draft.submit,
    gpus: draft.gpus,
    work: draft.work,
    minRuntime: draft.minRuntime,
    resumable: draft.resumable,
    priority: draft.priority,
    class: draft.class,
    baseline: draft.baseline,
  };
}

/**
 * The drafts in submit order, ties in list order: the same as a stable sort by `submit`, but on
 * numeric keys (submit x n + position) instead of a comparator call per pair, which matters for
 * a year's million jobs. Falls back to the comparator when a key would not be an exact integer.
 */
function sortBySubmit(drafts: readonly Draft[]): Draft[] {
  const count = drafts.length;
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const key = (drafts[i] as Draft).submit * count + i;
    if (!Number.isSafeInteger(key) || key < 0) {
      return [...drafts].sort((a, b) => a.submit - b.submit);
    }
    keys[i] = key;
  }
  keys.sort();
  return Array.from(keys, (key) => drafts[key % count] as Draft);
}

/**
 * A synthetic month (or any number of days) of the lab of docs/concepts.md, seeded: the same
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
  const profile = options.profile ?? LAB_PROFILE;
  const clusters = options.clusters ?? profile.clusters;
  const horizonSec = options.days * DAY_SEC;
  const loadFactor = options.loadFactor ?? profile.loadFactor;
  const org = options.org ?? buildLabOrg(DEMO_ORG_SEED);
  const { tree, projects } = listLabProjects(
    org,
    random,
    clusters.map((cluster) => cluster.name),
  );
  const drafts: Draft[] = [];
  for (const cluster of clusters) {
    const gpus = cluster.nodes * cluster.gpusPerNode;
    const onCluster = projects.filter((p) => p.clusters.some((c) => c.name === cluster.name));
    const users = weighItems(onCluster, (p) =>
      profile.demand === "even"
        ? 1
        : p.effectiveShare *
          p.appetite *
          (p.clusters.find((c) => c.name === cluster.name)?.part ?? 0),
    );
    const sizes = weighTrainingSizes(cluster, profile.maxTrainingGpus);
    let backlog = 0;
    while (backlog < 1.5 * gpus) {
      const job = trainingJob(
        random,
        profile,
        pickWeighted(random, users),
        cluster,
        sizes,
        random.int(0, 3600),
      );
      backlog += job.gpus;
      drafts.push(job);
    }
    let offered = 0;
    const budgetSec = loadFactor * gpus * horizonSec;
    while (offered < budgetSec * (1 - profile.opportunisticShare)) {
      const project = pickWeighted(random, users);
      const job = trainingJob(
        random,
        profile,
        project,
        cluster,
        sizes,
        random.int(0, horizonSec - 1),
      );
      offered += job.gpus * Number(job.work);
      drafts.push(job);
    }
    for (const [kind, perGpuDay] of [
      ["debug", profile.debugPerGpuDay],
      ["interactive", profile.interactivePerGpuDay],
    ] as const) {
      const count = Math.round(perGpuDay * gpus * options.days);
      for (let made = 0; made < count;) {
        const submit = random.int(0, horizonSec - 1);
        if (!isWorkingHour(random, submit)) continue;
        drafts.push(smallJob(random, profile, kind, pickWeighted(random, users), cluster, submit));
        made++;
      }
    }
    let free = 0;
    while (free < profile.opportunisticShare * budgetSec) {
      const job = smallJob(
        random,
        profile,
        "opportunistic",
        pickWeighted(random, users),
        cluster,
        random.int(0, horizonSec - 1),
      );
      free += job.gpus * Number(job.work);
      drafts.push(job);
    }
  }
  const sorted = sortBySubmit(drafts);
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
    jobs: sorted.map((draft, i) => withId(`j${String(i + 1).padStart(6, "0")}`, draft)),
    nodeEvents: planLabMaintenance(random, clusters, horizonSec),
    baseline: { nonPreemptibleGpuCap: caps },
    horizon: formatDurationSec(horizonSec),
  };
}
