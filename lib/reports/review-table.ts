import type { NodePeriod, PeriodReport } from "./period-report";

/** Waits of one job class below one node, seconds (nearest-rank percentiles). */
export type WaitSummary = { jobs: number; waitP50Sec: number; waitP90Sec: number };

/** What the review loader adds per node (lib/data/review.ts NodeActivity). */
type Activity = {
  waits: readonly (WaitSummary & { jobClass: string })[];
  preemptions: number;
};

/** One row of the review table (docs/fulfilment.md): a tree node over the period. */
export type ReviewRow = Omit<NodePeriod, "demandGpuHours"> & {
  depth: number;
  /** Still in the tree today (false: removed since, its hours stay in the review). */
  isLive: boolean;
  preemptions: number;
  /** By job class. */
  waits: Record<string, WaitSummary>;
};

/**
 * The table's rows in the report's tree order, with depth, preemptions and waits joined in.
 *
 * @example reviewRows(report, { a: { waits: [], preemptions: 2 } }, new Set(["a"]))[1].preemptions // 2
 */
export function reviewRows(
  report: Pick<PeriodReport, "nodes">,
  activity: Readonly<Record<string, Activity>>,
  liveIds: ReadonlySet<string>,
): ReviewRow[] {
  return report.nodes.map(({ demandGpuHours: _demand, ...node }) => ({
    ...node,
    depth: node.parentId === null ? 0 : node.path.split("/").length,
    isLive: liveIds.has(node.id),
    preemptions: activity[node.id]?.preemptions ?? 0,
    waits: Object.fromEntries(
      (activity[node.id]?.waits ?? []).map(({ jobClass, ...summary }) => [jobClass, summary]),
    ),
  }));
}

/** The classes every submitted job falls in (lib/data/jobs.ts): the review always has them. */
const ALWAYS_SHOWN_CLASSES = ["debug", "training"];

/**
 * Job classes in the order the review's columns take them: debug, training and interactive
 * first, then the others by name. The what-if's result uses the same order.
 *
 * @example orderJobClasses(["training", "opportunistic", "debug"]) // ["debug", "training", "opportunistic"]
 */
export function orderJobClasses(names: Iterable<string>): string[] {
  const known = ["debug", "training", "interactive"];
  const rank = (name: string) => (known.includes(name) ? known.indexOf(name) : known.length);
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * The review's job classes: debug and training always (so a month without jobs has the same
 * CSV columns as any other), then any other class that occurs in a row.
 */
export function jobClassesOf(rows: readonly Pick<ReviewRow, "waits">[]): string[] {
  return orderJobClasses([
    ...ALWAYS_SHOWN_CLASSES,
    ...rows.flatMap((row) => Object.keys(row.waits)),
  ]);
}

/** The viewer's part of the review: rows they lead (the highest of each branch) and their budgets. */
export type ReviewFocus = {
  /** Shown rows the viewer leads, none below another (a lead of an ancestor sees the higher). */
  leadTops: string[];
  /** Shown budgets the viewer is a member of, outside the branches they lead. */
  memberIds: string[];
};

/**
 * What the review marks and puts first for a viewer, from the nodes they lead and the budgets
 * they belong to; nodes the rows do not show count for nothing.
 *
 * @example findReviewFocus(rows, ["lang", "lang/a"], ["vision/x"]) // { leadTops: ["lang"], memberIds: ["vision/x"] }
 */
export function findReviewFocus(
  rows: readonly { id: string; parentId: string | null }[],
  leadIds: readonly string[],
  memberIds: readonly string[],
): ReviewFocus {
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
  const isBelow = (id: string, ancestors: ReadonlySet<string>) => {
    for (let at: string | null | undefined = id; at; at = parentOf.get(at)) {
      if (ancestors.has(at)) return true;
    }
    return false;
  };
  const leads = new Set(leadIds.filter((id) => parentOf.has(id)));
  return {
    leadTops: [...leads].filter((id) => !isBelow(parentOf.get(id) ?? "", leads)),
    memberIds: memberIds.filter((id) => parentOf.has(id) && !isBelow(id, leads)),
  };
}

/**
 * The sentence that says whose rows come first, naming only what is marked: "Your branch comes
 * first." for a lead, "Your budget comes first." for a researcher; null when nothing is.
 *
 * @example focusNoteOf({ leadTops: [], memberIds: ["a", "b"] }) // "Your budgets come first."
 */
export function focusNoteOf(focus: ReviewFocus): string | null {
  const parts = [
    focus.leadTops.length > 1 ? "your branches" : focus.leadTops.length === 1 ? "your branch" : "",
    focus.memberIds.length > 1 ? "your budgets" : focus.memberIds.length === 1 ? "your budget" : "",
  ].filter(Boolean);
  if (parts.length === 0) return null;
  const isPlural = focus.leadTops.length + focus.memberIds.length > 1;
  const subject = parts.join(" and ");
  return `${subject[0]!.toUpperCase()}${subject.slice(1)} ${isPlural ? "come" : "comes"} first.`;
}

/**
 * Puts the viewer's branches first: at every level, a sibling whose subtree holds a focus
 * node comes before the others (their order otherwise kept). Rows must be depth-first.
 *
 * @example focusFirst(rows, new Set(["vision"])) // root, vision..., language..., robotics...
 */
export function focusFirst<Row extends { id: string; parentId: string | null }>(
  rows: readonly Row[],
  focusIds: ReadonlySet<string>,
): Row[] {
  const children = new Map<string | null, Row[]>();
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const row of rows) {
    const parentKey = row.parentId !== null && byId.has(row.parentId) ? row.parentId : null;
    const list = children.get(parentKey) ?? [];
    list.push(row);
    children.set(parentKey, list);
  }
  const holdsFocus = new Set<string>();
  for (const id of focusIds) {
    const seen = new Set<string>();
    for (let at = byId.get(id); at && !seen.has(at.id); at = byId.get(at.parentId ?? "")) {
      seen.add(at.id);
      holdsFocus.add(at.id);
    }
  }
  const out: Row[] = [];
  const visit = (list: readonly Row[]) => {
    const ordered = [
      ...list.filter((row) => holdsFocus.has(row.id)),
      ...list.filter((row) => !holdsFocus.has(row.id)),
    ];
    for (const row of ordered) {
      out.push(row);
      visit(children.get(row.id) ?? []);
    }
  };
  visit(children.get(null) ?? []);
  return out;
}
