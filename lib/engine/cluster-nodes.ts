import type { NodesSeen } from "./live-run";
import { createGpuPool, createPositionLookup, type GpuPool } from "./placement";
import type { StandingRunsState } from "./standing-runs";
import type { ClusterNodeState, NodeHealth } from "./types";
import { countUsableFree } from "./usable-free";

// The nodes as a pass loads them (`loadClusterState`): its pool of GPUs and each node's health.

/** The nodes of a pass: a pool with every GPU free, and where the unhealthy nodes are. */
export type LoadedNodes = {
  pool: GpuPool;
  /** Health per pool position. */
  healthAt: NodeHealth[];
  /** Positions of down nodes, ascending. */
  downAt: number[];
  /** Positions of draining nodes, ascending. */
  drainingAt: number[];
};

/**
 * The pool and health of `nodes` for one pass, every GPU free. Standing runs keep them while
 * the nodes stay the very objects they saw (their pool's free GPUs are then the array kept for
 * a pass: no pass runs inside another); else they are read anew, and standing runs remember
 * them. Throws when the nodes are not those the standing runs were made for.
 *
 * @example const { pool, downAt } = loadNodes(standing, cluster.nodes)
 */
export function loadNodes(
  standing: StandingRunsState | null,
  nodes: readonly ClusterNodeState[],
): LoadedNodes {
  const seen = standing?.nodesSeen;
  if (standing && seen && isSameNodes(seen, nodes)) {
    standing.passFree.set(standing.pool.capacity);
    const pool = { ...standing.pool, free: standing.passFree, isUsable: seen.isUsable };
    return { pool, healthAt: seen.healthAt, downAt: seen.downAt, drainingAt: seen.drainingAt };
  }
  const pool = standing
    ? copyPool(standing.pool, standing.positionOf, nodes)
    : createGpuPool(nodes);
  const lookup = standing?.positionOf ?? createPositionLookup(pool);
  const healthAt: NodeHealth[] = [];
  for (const node of nodes) healthAt[lookup(node.index)] = node.health;
  const downAt = positionsWith(healthAt, "down");
  const drainingAt = positionsWith(healthAt, "draining");
  if (standing) {
    standing.nodesSeen = seeNodes(nodes, pool.isUsable, healthAt, downAt, drainingAt);
    standing.usableFree = countUsableFree(standing.pool, standing.free, pool.isUsable);
  }
  return { pool, healthAt, downAt, drainingAt };
}

/** No entries: what most passes find on down and draining nodes, made once. */
const NONE_HELD: readonly number[] = Object.freeze([]);

/**
 * The entries of `live` holding GPUs on `positions` (down or draining nodes), ascending: the
 * order of `live`.
 *
 * @example for (const index of heldOn(drainingAt, heldByPosition)) ...
 */
export function heldOn(
  positions: readonly number[],
  heldByPosition: readonly (readonly number[])[],
): readonly number[] {
  if (positions.length === 0) return NONE_HELD;
  const indices: number[] = [];
  for (const position of positions) indices.push(...heldByPosition[position]!);
  return [...new Set(indices)].sort((a, b) => a - b);
}

function seeNodes(
  nodes: readonly ClusterNodeState[],
  isUsable: Uint8Array,
  healthAt: NodeHealth[],
  downAt: number[],
  drainingAt: number[],
): NodesSeen {
  const isFrozen = Object.isFrozen(nodes) && nodes.every((node) => Object.isFrozen(node));
  return {
    frozen: isFrozen ? nodes : null,
    nodes: [...nodes],
    fields: nodes.map(({ index, gpus, health }) => ({ index, gpus, health })),
    isUsable,
    healthAt,
    downAt,
    drainingAt,
  };
}

/** The positions whose node has `health`, ascending. */
function positionsWith(healthAt: readonly NodeHealth[], health: NodeHealth): number[] {
  const positions: number[] = [];
  for (let position = 0; position < healthAt.length; position += 1) {
    if (healthAt[position] === health) positions.push(position);
  }
  return positions;
}

/**
 * Whether `nodes` are the very objects seen, none changed since: at once when they are the very
 * frozen array seen (as the simulator gives them, a new array whenever a node changes), else one
 * node at a time.
 */
function isSameNodes(seen: NodesSeen, nodes: readonly ClusterNodeState[]): boolean {
  if (nodes === seen.frozen) return true;
  if (seen.nodes.length !== nodes.length) return false;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    const fields = seen.fields[i]!;
    if (
      node !== seen.nodes[i] ||
      node.health !== fields.health ||
      node.gpus !== fields.gpus ||
      node.index !== fields.index
    ) {
      return false;
    }
  }
  return true;
}

/**
 * A fresh pool for `nodes` from the template standing runs keep: node order, positions and sizes
 * are shared, free GPUs and health are the pass's own. Throws when the nodes are not the
 * template's.
 */
function copyPool(
  template: GpuPool,
  positionOf: (node: number) => number,
  nodes: readonly ClusterNodeState[],
): GpuPool {
  const count = template.indexOf.length;
  const isUsable = new Uint8Array(count);
  const isSeen = new Uint8Array(count);
  let isSame = nodes.length === count;
  for (let i = 0; i < nodes.length && isSame; i += 1) {
    const node = nodes[i]!;
    const position = positionOf(node.index);
    isSame = position >= 0 && !isSeen[position] && template.capacity[position] === node.gpus;
    if (!isSame) break;
    isSeen[position] = 1;
    isUsable[position] = node.health === "healthy" ? 1 : 0;
  }
  if (!isSame) {
    throw new RangeError("The cluster's nodes are not those its standing runs were made for.");
  }
  return { ...template, free: template.capacity.slice(), isUsable };
}
