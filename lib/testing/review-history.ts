// Hand-made review history for tests: hourly roll-ups and finished jobs written straight into
// the tables the review reads, and the weight history moved back so the tree covers them.
import type { Db } from "../data/db/client";
import { validateBudgetTree } from "../engine/budget-tree";
import { createRandom } from "../sim/random";

const HOUR_SEC = 3600;

/** One leaf-hour of roll-ups, in GPU-seconds (docs/fulfilment.md). */
export type RollupInput = {
  clusterId: string;
  budgetId: string;
  hourSec: number;
  demandGpuSec: number;
  allocatedGpuSec: number;
  unallocatedGpuSec: number;
  capacityGpuSec: number;
  preemptions?: number;
};

/** A job as the review reads it: who, which class, when it was submitted and first started. */
export type JobInput = {
  clusterId: string;
  budgetId: string;
  userId: string;
  jobClass: string;
  gpus: number;
  submittedSec: number;
  /** null: never started. */
  firstStartedSec: number | null;
  endedSec: number | null;
};

const at = (sec: number) => new Date(sec * 1000);

/**
 * Writes roll-up rows; a row already there for the same cluster, leaf and hour is kept. One
 * statement per 20,000 rows (arrays unnested by Postgres): a month of a lab in seconds.
 */
export async function insertRollups(db: Db, rows: readonly RollupInput[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 20_000) {
    const chunk = rows.slice(start, start + 20_000);
    const column = <T>(pick: (row: RollupInput) => T) => chunk.map(pick);
    await db.$executeRaw`
      INSERT INTO usage_hourly ("clusterId", "budgetId", "hourStart", "demandGpuSec",
        "allocatedGpuSec", "unallocatedGpuSec", "healthyCapacityGpuSec", preemptions)
      SELECT c, b, to_timestamp(h) AT TIME ZONE 'UTC', d, a, u, k, p
      FROM unnest(${column((r) => r.clusterId)}::text[], ${column((r) => r.budgetId)}::text[],
        ${column((r) => r.hourSec)}::float8[], ${column((r) => r.demandGpuSec)}::float8[],
        ${column((r) => r.allocatedGpuSec)}::float8[], ${column((r) => r.unallocatedGpuSec)}::float8[],
        ${column((r) => r.capacityGpuSec)}::float8[], ${column((r) => r.preemptions ?? 0)}::int[])
        AS t(c, b, h, d, a, u, k, p)
      ON CONFLICT DO NOTHING`;
  }
}

/** Writes jobs (completed when they ended after starting, else cancelled or still pending). */
export async function insertJobs(db: Db, jobs: readonly JobInput[]): Promise<void> {
  await db.job.createMany({
    data: jobs.map((job, index) => ({
      clusterId: job.clusterId,
      budgetId: job.budgetId,
      userId: job.userId,
      name: `review-${job.jobClass}-${index}`,
      gpus: job.gpus,
      minRuntimeSec: job.jobClass === "debug" ? 600 : 3600,
      isResumable: true,
      jobClass: job.jobClass,
      state:
        job.endedSec === null
          ? "pending"
          : job.firstStartedSec === null
            ? "cancelled"
            : "completed",
      submittedAt: at(job.submittedSec),
      firstStartedAt: job.firstStartedSec === null ? null : at(job.firstStartedSec),
      endedAt: job.endedSec === null ? null : at(job.endedSec),
    })),
  });
}

/**
 * Moves the records that created the tree's nodes (weight from nothing, outside any edit)
 * back to `sec` when they are later: the seed writes them at the moment it runs, and history
 * written for the past needs a tree in force then.
 */
export async function backdateTreeSetup(db: Db, sec: number): Promise<number> {
  const moved = await db.weightChange.updateMany({
    where: { weightBefore: null, changeId: null, at: { gt: at(sec) } },
    data: { at: at(sec) },
  });
  return moved.count;
}

/**
 * A month of plausible history for some leaves on one cluster: every hour, each leaf asks for
 * between half and three times its share and gets most of it, some as unallocated time; a few
 * preemptions; debug, training and interactive jobs with waits from seconds to hours.
 * Deterministic for a given seed.
 */
export function generateReviewHistory(options: {
  clusterId: string;
  capacityGpus: number;
  leaves: readonly { budgetId: string; share: number; userId: string }[];
  fromSec: number;
  toSec: number;
  seed: number;
}): { rollups: RollupInput[]; jobs: JobInput[] } {
  const random = createRandom(options.seed);
  const capacityGpuSec = options.capacityGpus * HOUR_SEC;
  const rollups: RollupInput[] = [];
  const jobs: JobInput[] = [];
  for (let hourSec = options.fromSec; hourSec < options.toSec; hourSec += HOUR_SEC) {
    for (const leaf of options.leaves) {
      const owed = leaf.share * capacityGpuSec;
      const demand = owed * (0.5 + 2.5 * random.next());
      const allocated = Math.min(demand, owed * (0.6 + 0.6 * random.next()));
      const unallocated = Math.min(demand - allocated, owed * 0.2 * random.next());
      rollups.push({
        clusterId: options.clusterId,
        budgetId: leaf.budgetId,
        hourSec,
        demandGpuSec: Math.round(demand),
        allocatedGpuSec: Math.round(allocated),
        unallocatedGpuSec: Math.round(unallocated),
        capacityGpuSec,
        preemptions: random.chance(0.03) ? 1 : 0,
      });
      if (random.chance(0.1)) {
        const jobClass = random.pick(["debug", "debug", "training", "interactive"]);
        const submittedSec = hourSec + random.int(0, HOUR_SEC - 1);
        const waitSec = Math.round(
          jobClass === "training" ? random.logUniform(60, 36_000) : random.logUniform(5, 1_800),
        );
        jobs.push({
          clusterId: options.clusterId,
          budgetId: leaf.budgetId,
          userId: leaf.userId,
          jobClass,
          gpus: jobClass === "training" ? 8 : 1,
          submittedSec,
          firstStartedSec: submittedSec + waitSec,
          endedSec: submittedSec + waitSec + HOUR_SEC,
        });
      }
    }
  }
  return { rollups, jobs };
}

/**
 * Writes generated history (see generateReviewHistory) for every funded leaf of the live tree
 * on the named clusters over [fromSec, toSec), after moving the tree's setup back to
 * `fromSec` minus the longest lookback window. Returns the number of roll-up rows and jobs.
 */
export async function writeReviewHistory(
  db: Db,
  options: { clusters: readonly string[]; fromSec: number; toSec: number; seed: number },
): Promise<{ rollups: number; jobs: number }> {
  const [nodes, clusters, anyUser] = await Promise.all([
    db.budgetNode.findMany({
      where: { removedAt: null },
      select: { id: true, parentId: true, name: true, weight: true, members: { take: 1 } },
    }),
    db.cluster.findMany({
      where: { name: { in: [...options.clusters] } },
      select: { id: true, lookbackSec: true, nodes: { select: { gpus: true } } },
    }),
    db.user.findFirstOrThrow({ select: { id: true } }),
  ]);
  const tree = validateBudgetTree(nodes);
  if (!tree.ok) throw new Error(`The budget tree is invalid: ${tree.issues[0]?.message}`);
  const membersOf = new Map(nodes.map((node) => [node.id, node.members[0]?.userId]));
  const leaves = tree.value.nodes
    .filter((node) => node.isLeaf && node.effectiveShare > 0)
    .map((node) => ({
      budgetId: node.id,
      share: node.effectiveShare,
      userId: membersOf.get(node.id) ?? anyUser.id,
    }));
  const lookbackSec = Math.max(0, ...clusters.map((cluster) => cluster.lookbackSec));
  await backdateTreeSetup(db, options.fromSec - lookbackSec);
  let rollupCount = 0;
  let jobCount = 0;
  for (const [index, cluster] of clusters.entries()) {
    const { rollups, jobs } = generateReviewHistory({
      clusterId: cluster.id,
      capacityGpus: cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
      leaves,
      fromSec: options.fromSec,
      toSec: options.toSec,
      seed: options.seed + index,
    });
    await insertRollups(db, rollups);
    for (let start = 0; start < jobs.length; start += 5_000) {
      await insertJobs(db, jobs.slice(start, start + 5_000));
    }
    rollupCount += rollups.length;
    jobCount += jobs.length;
  }
  return { rollups: rollupCount, jobs: jobCount };
}
