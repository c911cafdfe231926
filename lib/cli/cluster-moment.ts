import {
  orderLikeFairTree,
  validateBudgetTree,
  type BudgetTree,
  type FairTreeRanking,
  type FairTreeRow,
} from "../engine";
import {
  formatDurationSec,
  simulateCluster,
  SCHEDULERS,
  type ClusterSimResult,
  type Scenario,
  type SimCluster,
} from "../sim";
import { InputError, UsageError } from "./io";

/** A cluster simulated under the allocation scheduler up to a moment, with its checked tree. */
export type ClusterMoment = {
  cluster: SimCluster;
  tree: BudgetTree;
  result: ClusterSimResult;
  atSec: number;
};

/** Picks `--cluster` (default: the scenario's first cluster), or a {@link UsageError}. */
export function pickCluster(
  command: string,
  scenario: Scenario,
  name: string | undefined,
): SimCluster {
  const cluster =
    name === undefined ? scenario.clusters[0] : scenario.clusters.find((c) => c.name === name);
  if (!cluster) {
    const known = scenario.clusters.map((c) => c.name).join(", ");
    throw new UsageError(
      `${command}: no cluster "${name ?? ""}" in the scenario (clusters: ${known})`,
    );
  }
  return cluster;
}

/**
 * `--at` within the scenario's horizon, when it has one, or a {@link UsageError}: past its end
 * the simulator never runs, and a table of that moment would show a run that never was.
 */
export function checkMomentInScenario(command: string, scenario: Scenario, atSec: number): void {
  const endSec = scenario.horizonSec;
  if (endSec === null || atSec <= endSec) return;
  throw new UsageError(
    `${command}: --at ${formatDurationSec(atSec)} is past the scenario's end (its horizon is ${formatDurationSec(endSec)})`,
  );
}

/** Simulates `cluster` with the allocation scheduler until `atSec` (shares and queue read it). */
export function simulateUntil(
  scenario: Scenario,
  cluster: SimCluster,
  atSec: number,
): ClusterMoment {
  const checked = validateBudgetTree(scenario.tree);
  if (!checked.ok) {
    throw new InputError(`budget tree: ${checked.issues.map((issue) => issue.message).join("; ")}`);
  }
  // The queue explains each running job by its start.
  const result = simulateCluster(scenario, cluster, SCHEDULERS.allocation, {
    untilSec: atSec,
    keepsStartReasons: true,
  });
  return { cluster, tree: checked.value, result, atSec };
}

/**
 * A ranking's rows as Fair Tree visits them (siblings by level fair-share), so that leaf ranks
 * read down the page, as in the live `sshare`; the root first.
 */
export function rowsLikeFairTree(ranking: FairTreeRanking, tree: BudgetTree): FairTreeRow[] {
  return orderLikeFairTree(
    ranking.rows.map((row, index) => ({ row, parentId: tree.nodes[index]!.parentId })),
    ({ row, parentId }) => ({
      id: row.id,
      parentId,
      name: row.name,
      isLeaf: row.isLeaf,
      levelFairShare: row.levelFairShare ?? Number.NEGATIVE_INFINITY,
    }),
  ).map(({ row }) => row);
}
