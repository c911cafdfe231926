// A generated workload on the organisation's own budget tree and clusters (the "current tree"
// choice). lib/sim's lab generator builds its own org; this adapter feeds any tree, keeping the
// same habits: demand about twice the supply, training backlogs, debug jobs, baseline inflation.
import {
  createRandom,
  formatDurationSec,
  type RawTreeNode,
  type ScenarioFile,
  type ScenarioFileJob,
} from "../sim";

/** One node of the stored tree, as lib/data gives it. */
export type TreeScenarioNode = {
  id: string;
  parentId: string | null;
  name: string;
  weight: number;
  /** Names below the root joined by "/" ("" for the root). */
  path: string;
  isLeaf: boolean;
  effectiveShare: number;
};

/** One stored cluster. */
export type TreeScenarioCluster = { name: string; gpuType: string; nodes: number; gpus: number };

export type TreeScenarioOptions = { days: number; seed: number };

const DAY_SEC = 86_400;
/** Work offered per second as a multiple of capacity: the lab's 2x demand. */
const LOAD_FACTOR = 2;
const DEBUG_PER_GPU_DAY = 0.4;

function nestTree(nodes: readonly TreeScenarioNode[]): RawTreeNode {
  const childrenOf = new Map<string | null, TreeScenarioNode[]>();
  for (const node of nodes) {
    const siblings = childrenOf.get(node.parentId) ?? [];
    siblings.push(node);
    childrenOf.set(node.parentId, siblings);
  }
  function nest(node: TreeScenarioNode): RawTreeNode {
    const children = childrenOf.get(node.id) ?? [];
    return {
      name: node.name,
      weight: node.weight,
      ...(children.length > 0 ? { children: children.map(nest) } : {}),
    };
  }
  const root = childrenOf.get(null)?.[0];
  if (!root) throw new Error("The budget tree has no root.");
  return nest(root);
}

/**
 * A scenario of `days` days on the given tree and clusters: each leaf with a positive share
 * sends training jobs in proportion to its effective share (with a seeded appetite between 0.5
 * and 1.5), debug jobs in working hours, and a few min-runtime-0 opportunistic jobs. Same
 * inputs, same scenario.
 *
 * @example buildTreeScenario(tree, clusters, { days: 7, seed: 1 }).jobs.length
 */
export function buildTreeScenario(
  nodes: readonly TreeScenarioNode[],
  clusters: readonly TreeScenarioCluster[],
  options: TreeScenarioOptions,
): ScenarioFile {
  const random = createRandom(options.seed);
  const horizonSec = options.days * DAY_SEC;
  const leaves = nodes.filter((node) => node.isLeaf && node.parentId !== null);
  const appetite = new Map(leaves.map((leaf) => [leaf.id, 0.5 + random.next()]));
  const pull = (leaf: TreeScenarioNode) => leaf.effectiveShare * (appetite.get(leaf.id) ?? 1);
  const pullTotal = leaves.reduce((sum, leaf) => sum + pull(leaf), 0);
  const pickLeaf = (): TreeScenarioNode => {
    let x = random.next() * pullTotal;
    for (const leaf of leaves) {
      x -= pull(leaf);
      if (x < 0) return leaf;
    }
    return leaves[leaves.length - 1]!;
  };
  const jobs: Omit<ScenarioFileJob, "id">[] = [];
  for (const cluster of pullTotal > 0 ? clusters : []) {
    const gpusPerNode = Math.max(1, Math.round(cluster.gpus / Math.max(1, cluster.nodes)));
    const sizes = [1, 2, 4, 8, 16, 32, 64].filter((gpus) => gpus <= cluster.gpus / 4);
    let offeredGpuSec = 0;
    while (offeredGpuSec < LOAD_FACTOR * cluster.gpus * horizonSec) {
      const leaf = pickLeaf();
      const gpus = random.pick(sizes.length > 0 ? sizes : [1]);
      const workSec = Math.round(random.logUniform(2 * 3600, 2 * DAY_SEC));
      const level = random.next();
      jobs.push({
        budget: leaf.path,
        cluster: cluster.name,
        user: `${leaf.name}-user`,
        submit: random.int(0, horizonSec - 1),
        gpus,
        work: workSec,
        minRuntime: formatDurationSec(3600 * random.int(1, 6)),
        resumable: random.chance(0.9),
        priority: level < 0.2 ? "high" : level < 0.9 ? "normal" : "low",
        baseline: { priority: level < 0.7 ? "high" : "normal", preemptible: random.chance(0.4) },
      });
      offeredGpuSec += gpus * workSec;
    }
    const debugCount = Math.round(DEBUG_PER_GPU_DAY * cluster.gpus * options.days);
    for (let made = 0; made < debugCount; made++) {
      const leaf = pickLeaf();
      jobs.push({
        budget: leaf.path,
        cluster: cluster.name,
        user: `${leaf.name}-user`,
        submit: random.int(0, horizonSec - 1),
        gpus: Math.min(gpusPerNode, random.pick([1, 1, 2, 4, 8])),
        work: Math.round(random.logUniform(120, 1800)),
        minRuntime: formatDurationSec(60 * random.pick([5, 10, 15])),
        resumable: false,
        priority: "high",
        baseline: { priority: "high", preemptible: random.chance(0.5) },
      });
    }
  }
  jobs.sort((a, b) => Number(a.submit) - Number(b.submit));
  return {
    clusters: clusters.map((cluster) => {
      const gpusPerNode = Math.max(1, Math.round(cluster.gpus / Math.max(1, cluster.nodes)));
      return { name: cluster.name, gpuType: cluster.gpuType, nodes: cluster.nodes, gpusPerNode };
    }),
    tree: nestTree(nodes),
    settings: { lookback: "7d", maxMinRuntime: "8h" },
    jobs: jobs.map((job, i) => ({ id: `t${String(i + 1).padStart(6, "0")}`, ...job })),
    horizon: formatDurationSec(horizonSec),
  };
}
