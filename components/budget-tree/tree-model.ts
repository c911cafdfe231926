// The budgets page's data as the browser gets it, and pure helpers over it (search,
// visibility, the edit preview through the engine). No React here: unit-testable.
import { applyChildrenEdit, weeklyGpuHours } from "@/lib/engine";

/** A person; the email only where the viewer may see it (leads of their budgets, admins). */
export type Person = { id: string; name: string; email?: string };

/** What every budget-tree table shows of a node (budget-tree-rows.tsx). */
export type ShareRow = {
  id: string;
  parentId: string | null;
  name: string;
  depth: number;
  isLeaf: boolean;
  weight: number;
  fraction: number;
  effectiveShare: number;
};

/** A node's ShareRow fields, and only those (a page sends no more than the table shows). */
export function toShareRow(node: ShareRow): ShareRow {
  const { id, parentId, name, depth, isLeaf, weight, fraction, effectiveShare } = node;
  return { id, parentId, name, depth, isLeaf, weight, fraction, effectiveShare };
}

export type NodeRow = ShareRow & {
  path: string;
  version: number;
  leads: Person[];
  members: Person[];
  /** The viewer may change this node's children and members. */
  canEdit: boolean;
  /** The viewer may change this node's leads. */
  canManageLeads: boolean;
  /** A leaf's pending and running jobs, when it has any. */
  openJobs?: { pending: number; running: number };
};

/**
 * What the server sends: people once, rows pointing at them by index, no paths. A
 * 1,000-node tree with ~1,000 memberships is about a third of the size of NodeRow[].
 */
export type CompactTree = {
  people: Person[];
  rows: (Omit<NodeRow, "path" | "leads" | "members"> & { leads: number[]; members: number[] })[];
};

/** NodeRow[] from the compact form; rows are depth-first, so a parent's path comes first. */
export function expandTree(compact: CompactTree): NodeRow[] {
  const pathOf = new Map<string, string>();
  return compact.rows.map((row) => {
    const parentPath = row.parentId === null ? null : (pathOf.get(row.parentId) ?? "");
    const path = parentPath === null ? "" : parentPath ? `${parentPath}/${row.name}` : row.name;
    pathOf.set(row.id, path);
    return {
      ...row,
      path,
      leads: row.leads.map((index) => compact.people[index]!),
      members: row.members.map((index) => compact.people[index]!),
    };
  });
}

export type ClusterRef = {
  name: string;
  gpuType: string;
  gpus: number;
  /** The ranking's lookback window and each budget's use within it (GPU-hours), when known. */
  lookbackSec?: number;
  usedGpuHoursById?: Record<string, number>;
};

export type DraftChild = { key: string; id?: string; name: string; weightText: string };

export type PreviewRow = {
  id: string;
  name: string;
  depth: number;
  weight: number;
  fraction: number;
  effectiveShare: number;
  /** Share before the edit; null for a new child. */
  oldShare: number | null;
};

/** GPU-hours per week on each cluster for a share. */
export function gpuHoursByCluster(share: number, clusters: ClusterRef[]): number[] {
  return clusters.map((cluster) => weeklyGpuHours(share, cluster.gpus));
}

/** Whether a lead or member of the row has the needle in their name or email. */
function hasPerson(row: NodeRow, needle: string): boolean {
  return [...row.leads, ...row.members].some(
    (person: Person) =>
      person.name.toLowerCase().includes(needle) ||
      (person.email?.toLowerCase().includes(needle) ?? false),
  );
}

/**
 * How many nodes match a search themselves: by name (by path when it has a "/"), or by a lead
 * or member. The budgets shown around them (above, and below a matching branch) are not counted.
 */
export function countOwnMatches(rows: NodeRow[], query: string): number {
  const needle = query.trim().toLowerCase();
  if (!needle) return 0;
  const text = (row: NodeRow): string => (needle.includes("/") ? row.path : row.name);
  // The root (path "") is matched by its people only, as matchSearch does.
  const isMatch = (row: NodeRow): boolean =>
    (row.path !== "" && text(row).toLowerCase().includes(needle)) || hasPerson(row, needle);
  return rows.filter(isMatch).length;
}

/** Ids of nodes matching a search (name, path, lead or member name or email) and their ancestors. */
export function matchSearch(rows: NodeRow[], query: string): Set<string> | null {
  const needle = query.trim().toLowerCase();
  if (!needle) return null;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const shown = new Set<string>();
  for (const row of rows) {
    if (row.path.toLowerCase().includes(needle) || hasPerson(row, needle)) {
      for (
        let id: string | null = row.id;
        id && !shown.has(id);
        id = byId.get(id)?.parentId ?? null
      ) {
        shown.add(id);
      }
    }
  }
  return shown;
}

/**
 * Rows to show, in order: every ancestor open (or, when searching, on a match's path). Rows
 * must be depth-first (a parent before its children).
 */
export function visibleRows<Row extends { id: string; parentId: string | null }>(
  rows: readonly Row[],
  open: ReadonlySet<string>,
  matches: ReadonlySet<string> | null = null,
): Row[] {
  const isShown = new Map<string, boolean>();
  return rows.filter((row) => {
    const shown =
      row.parentId === null ||
      (isShown.get(row.parentId) === true && (matches ? true : open.has(row.parentId)));
    const result = shown && (!matches || matches.has(row.id));
    isShown.set(row.id, result);
    return result;
  });
}

export function parseWeight(text: string): number | null {
  if (text.trim() === "") return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * The new shares of the edited node's subtree if the draft were saved, computed by the
 * engine on the whole tree (the server runs the same function before it writes).
 */
export function previewSplit(
  rows: NodeRow[],
  parentId: string,
  draft: DraftChild[],
): { ok: true; rows: PreviewRow[] } | { ok: false; message: string } {
  const children = draft.map((child) => ({
    id: child.id,
    name: child.name.trim(),
    weight: parseWeight(child.weightText) ?? 0,
  }));
  const result = applyChildrenEdit(rows, parentId, children, { newIdPrefix: "draft:" });
  if (!result.ok) return { ok: false, message: result.issues[0]?.message ?? "Invalid split." };
  const oldShare = new Map(rows.map((row) => [row.id, row.effectiveShare]));
  const { tree, addedIds } = result.value;
  const isNew = new Set(addedIds);
  const start = tree.indexById[parentId]!;
  const baseDepth = tree.nodes[start]!.depth;
  const out: PreviewRow[] = [];
  // Nodes are in depth-first order, so the subtree is the run of deeper nodes after it.
  for (let index = start + 1; index < tree.nodes.length; index += 1) {
    const node = tree.nodes[index]!;
    if (node.depth <= baseDepth) break;
    out.push({
      id: node.id,
      name: node.name,
      depth: node.depth - baseDepth,
      weight: node.weight,
      fraction: node.fraction,
      effectiveShare: node.effectiveShare,
      oldShare: isNew.has(node.id) ? null : (oldShare.get(node.id) ?? null),
    });
  }
  return { ok: true, rows: out };
}

/** A split as saved: its version and its children's weights (the editor's base, or a newer one). */
export type SavedSplit = {
  version: number;
  children: { id: string; name: string; weight: number }[];
};

/**
 * Puts the viewer's edit on top of a split someone else saved meanwhile: only what the
 * viewer changed (each name, each weight, removals, additions) is applied again; the rest
 * is what the other person saved, including their new children and their removals.
 */
export function rebaseDraft(
  base: Pick<SavedSplit, "children">,
  current: Pick<SavedSplit, "children">,
  draft: DraftChild[],
): DraftChild[] {
  const baseById = new Map(base.children.map((child) => [child.id, child]));
  const draftById = new Map(draft.flatMap((child) => (child.id ? [[child.id, child]] : [])));
  const out: DraftChild[] = [];
  for (const now of current.children) {
    const old = baseById.get(now.id);
    const mine = draftById.get(now.id);
    if (old && !mine) continue; // the viewer removed it
    if (!old || !mine) {
      out.push({ key: now.id, id: now.id, name: now.name, weightText: String(now.weight) });
      continue;
    }
    const isNameMine = mine.name.trim() !== old.name;
    const isWeightMine = parseWeight(mine.weightText) !== old.weight;
    out.push({
      key: mine.key,
      id: now.id,
      name: isNameMine ? mine.name : now.name,
      weightText: isWeightMine ? mine.weightText : String(now.weight),
    });
  }
  return [...out, ...draft.filter((child) => !child.id)];
}
