import type { BudgetNode, BudgetTree, BudgetTreeNode, Issue, Result } from "./types";

/** Hours in a week: GPU-hours per week = share x GPUs x this. */
export const HOURS_PER_WEEK = 168;

/**
 * The smallest weight above 0 that a person may set: below it (down to denormals like 1e-320)
 * a weight is noise, not a share anyone meant; 0 itself stays allowed (owed nothing).
 */
export const MIN_NONZERO_WEIGHT = 0.000001;

/**
 * Whether `weight` is above 0 but below {@link MIN_NONZERO_WEIGHT}: the inputs people type
 * weights into (edits, drafts, `import-trace --weights`) refuse it. Scenario files do not: the
 * what-if builds them from the stored tree, which may hold such a weight from before the rule.
 *
 * @example isWeightTooSmall(1e-320) // true; isWeightTooSmall(0) // false; isWeightTooSmall(0.000001) // false
 */
export function isWeightTooSmall(weight: number): boolean {
  return weight > 0 && weight < MIN_NONZERO_WEIGHT;
}

/**
 * A record with no prototype, so ids like "constructor" are safe keys.
 *
 * @example const byId = createRecord<number>(); byId["constructor"] // undefined
 */
export function createRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * Checks a flat list of budget nodes and builds the indexed tree with fractions and
 * effective shares (docs/concepts.md).
 *
 * Invariants of a valid tree: exactly one root (`parentId: null`), unique ids, every parent
 * exists, every node reachable from the root (no cycles), names non-empty without "/" and
 * unique among siblings, weights finite and >= 0. A node's fraction is its weight over the
 * sum of its siblings' weights (0 when they all weigh 0); the root's fraction and share are 1.
 *
 * @example
 * const tree = validateBudgetTree([
 *   { id: "r", parentId: null, name: "lab", weight: 1 },
 *   { id: "a", parentId: "r", name: "a", weight: 3 },
 *   { id: "b", parentId: "r", name: "b", weight: 1 },
 * ]);
 * // tree.ok && tree.value.nodes[1].effectiveShare === 0.75
 */
export function validateBudgetTree(input: readonly BudgetNode[]): Result<BudgetTree> {
  const issues: Issue[] = [];
  const byId = new Map<string, BudgetNode>();
  const childrenOf = new Map<string, BudgetNode[]>();
  let root: BudgetNode | undefined;

  for (const node of input) {
    if (byId.has(node.id)) {
      issues.push({
        code: "duplicate-id",
        message: `Node id "${node.id}" is used twice.`,
        id: node.id,
      });
      continue;
    }
    byId.set(node.id, node);
    if (!Number.isFinite(node.weight) || node.weight < 0) {
      issues.push({
        code: "invalid-weight",
        message: `Node "${node.name}" has weight ${node.weight}; weights must be finite and >= 0.`,
        id: node.id,
      });
    }
    if (node.name.length === 0 || node.name.includes("/")) {
      issues.push({
        code: "invalid-name",
        message: `Node name "${node.name}" must be non-empty and contain no "/".`,
        id: node.id,
      });
    }
    if (node.parentId === null) {
      if (root) {
        issues.push({
          code: "multiple-roots",
          message: `Both "${root.name}" and "${node.name}" have no parent; a tree has one root.`,
          id: node.id,
        });
      } else {
        root = node;
      }
    }
  }
  if (!root) {
    issues.push({ code: "no-root", message: "The tree has no root (a node with no parent)." });
    return { ok: false, issues };
  }

  for (const node of byId.values()) {
    if (node.parentId === null) continue;
    if (!byId.has(node.parentId)) {
      issues.push({
        code: "unknown-parent",
        message: `Node "${node.name}" names a parent "${node.parentId}" that does not exist.`,
        id: node.id,
      });
      continue;
    }
    const siblings = childrenOf.get(node.parentId);
    if (siblings) siblings.push(node);
    else childrenOf.set(node.parentId, [node]);
  }
  for (const siblings of childrenOf.values()) {
    const seen = new Set<string>();
    for (const node of siblings) {
      if (seen.has(node.name)) {
        issues.push({
          code: "duplicate-sibling-name",
          message: `Two children of the same parent are named "${node.name}".`,
          id: node.id,
        });
      }
      seen.add(node.name);
    }
  }
  if (issues.length > 0) return { ok: false, issues };

  const tree = buildIndexedTree(root, childrenOf);
  if (tree.nodes.length !== byId.size) {
    const reached = new Set(tree.nodes.map((node) => node.id));
    for (const node of byId.values()) {
      if (!reached.has(node.id)) {
        issues.push({
          code: "unreachable",
          message: `Node "${node.name}" is not reachable from the root (a cycle).`,
          id: node.id,
        });
      }
    }
    return { ok: false, issues };
  }
  return { ok: true, value: tree };
}

function buildIndexedTree(root: BudgetNode, childrenOf: Map<string, BudgetNode[]>): BudgetTree {
  const nodes: BudgetTreeNode[] = [];
  const indexById = createRecord<number>();
  let leafCount = 0;
  // Explicit stack: deep trees must not overflow the call stack.
  const stack: { node: BudgetNode; parentIndex: number; fraction: number }[] = [
    { node: root, parentIndex: -1, fraction: 1 },
  ];
  while (stack.length > 0) {
    const { node, parentIndex, fraction } = stack.pop()!;
    const parent = parentIndex >= 0 ? nodes[parentIndex] : undefined;
    const index = nodes.length;
    const children = childrenOf.get(node.id) ?? [];
    // Fields copied one by one: an object spread here cost ~7 µs a node on Node 20
    // (scripts/bench/budgets.ts), 50 times the explicit copy.
    const entry: BudgetTreeNode = {
      id: node.id,
      parentId: node.parentId,
      name: node.name,
      weight: node.weight,
      path: parent ? (parent.path === "" ? node.name : `${parent.path}/${node.name}`) : "",
      depth: parent ? parent.depth + 1 : 0,
      parentIndex,
      childIndices: [],
      isLeaf: children.length === 0,
      fraction,
      effectiveShare: parent ? parent.effectiveShare * fraction : 1,
    };
    nodes.push(entry);
    indexById[node.id] = index;
    parent?.childIndices.push(index);
    if (entry.isLeaf) leafCount += 1;
    let weightSum = 0;
    for (const child of children) weightSum += child.weight;
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const child = children[i]!;
      stack.push({
        node: child,
        parentIndex: index,
        fraction: weightSum > 0 ? child.weight / weightSum : 0,
      });
    }
  }
  return { rootId: root.id, nodes, indexById, leafCount };
}

/**
 * The node with this id, or undefined.
 *
 * @example getBudgetNode(tree, "a")?.effectiveShare // 0.75
 */
export function getBudgetNode(tree: BudgetTree, id: string): BudgetTreeNode | undefined {
  const index = tree.indexById[id];
  return index === undefined ? undefined : tree.nodes[index];
}

/**
 * Finds a node by its path of names below the root joined by "/" ("" is the root).
 *
 * @example findBudgetByPath(tree, "llm/pretrain")?.id
 */
export function findBudgetByPath(tree: BudgetTree, path: string): BudgetTreeNode | undefined {
  return tree.nodes.find((node) => node.path === path);
}

/**
 * A budget a job may be charged to: an existing leaf (docs/concepts.md: charging an inner
 * node is refused with a clear error).
 *
 * @example checkChargeableBudget(tree, "r") // { ok: false, issues: [{ code: "inner-budget", ... }] }
 */
export function checkChargeableBudget(tree: BudgetTree, id: string): Result<BudgetTreeNode> {
  const node = getBudgetNode(tree, id);
  if (!node) {
    return {
      ok: false,
      issues: [{ code: "unknown-budget", message: `No budget has id "${id}".`, id }],
    };
  }
  if (!node.isLeaf) {
    return {
      ok: false,
      issues: [
        {
          code: "inner-budget",
          message: `"${node.path || node.name}" has sub-budgets; only leaves can be charged.`,
          id,
        },
      ],
    };
  }
  return { ok: true, value: node };
}

/**
 * GPU-hours per week a share is owed on a cluster: `effectiveShare x clusterGpus x 168`.
 *
 * @example weeklyGpuHours(0.35, 146) // 8584.8 ("35% = 8,585 H100-h/week")
 */
export function weeklyGpuHours(effectiveShare: number, clusterGpus: number): number {
  return effectiveShare * clusterGpus * HOURS_PER_WEEK;
}
