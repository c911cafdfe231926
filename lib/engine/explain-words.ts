// The phrases every explanation is written with (times, budgets with their usage, rank
// comparisons, outcomes), built once per call from the caller's options.
import { formatDuration, formatOffset, type TimeFormatter } from "./format-time";
import { formatRatioPair, MAX_PAIR_DECIMALS, type RatioPair } from "./ratio-pair";
import { formatNodes, type NodeNamer } from "./node-list";
import type { BudgetRef, NodeLayout, Parting } from "./reasons";

/**
 * Whether the parting of two budgets is the two budgets themselves (siblings), so that their own
 * figures decided, rather than two branches above them.
 */
export function isSiblings(parting: Parting, higher: BudgetRef, lower: BudgetRef): boolean {
  return parting.higher.path === higher.path && parting.lower.path === lower.path;
}

/** How explanations write times and budgets. */
export type ExplainOptions = {
  /** Points in time (default `formatOffset`, e.g. "+2h05m"; `formatUtcClock` gives "14:05"). */
  formatTime?: TimeFormatter;
  /** Lengths of time (default `formatDuration`, e.g. "2 h"). */
  formatDuration?: TimeFormatter;
  /** How a budget is named (default its path, e.g. "llm/pretrain"). */
  budgetLabel?: (budget: BudgetRef) => string;
  /** What the usage ratio is relative to (default "weekly share", right for a 7-day window). */
  shareLabel?: string;
  /** How a node is named (default its index, "nodes 0-1"; SLURM's names give "nodes n[1-2]"). */
  nodeName?: NodeNamer;
};

/** A phrase that starts a sentence: "node n3 is empty" -> "Node n3 is empty". */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `count` with the noun that fits it: plural(1, "GPU", "GPUs") is "1 GPU", 3 gives "3 GPUs". */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * What a job asks for, as it will be placed: "8 GPUs on one node", "16 GPUs on 2 whole nodes",
 * "12 GPUs (1 whole node and 4 on another)"; "on whole nodes" when a reason has no layout.
 *
 * @example describeNeed(12, true, { wholeNodes: 1, remainderGpus: 4 })
 */
export function describeNeed(needGpus: number, isWholeNodes: boolean, layout?: NodeLayout): string {
  const gpus = plural(needGpus, "GPU", "GPUs");
  if (!isWholeNodes) return `${gpus} on one node`;
  if (!layout) return `${gpus} on whole nodes`;
  const nodes = plural(layout.wholeNodes, "whole node", "whole nodes");
  return layout.remainderGpus === 0
    ? `${gpus} on ${nodes}`
    : `${gpus} (${nodes} and ${layout.remainderGpus} on another)`;
}

/**
 * The nodes a job needs, for a sentence that has already said how many GPUs are free: "8 GPUs
 * on one node", "2 whole nodes", "1 whole node and 4 GPUs on another"; "16 GPUs on whole nodes"
 * when a reason has no layout.
 *
 * @example describeNodesNeeded(12, true, { wholeNodes: 1, remainderGpus: 4 })
 */
export function describeNodesNeeded(
  needGpus: number,
  isWholeNodes: boolean,
  layout?: NodeLayout,
): string {
  if (!isWholeNodes || !layout) return describeNeed(needGpus, isWholeNodes, layout);
  const nodes = plural(layout.wholeNodes, "whole node", "whole nodes");
  return layout.remainderGpus === 0
    ? nodes
    : `${nodes} and ${plural(layout.remainderGpus, "GPU", "GPUs")} on another`;
}

/** The phrases explanations are written with, for one set of options. */
export type Words = ReturnType<typeof wordsFor>;

export function wordsFor(options: ExplainOptions) {
  const time = options.formatTime ?? formatOffset;
  const duration = options.formatDuration ?? formatDuration;
  const label = options.budgetLabel ?? ((budget: BudgetRef) => budget.path);
  const shareLabel = options.shareLabel ?? "weekly share";
  const nodes = (indexes: readonly number[]): string => formatNodes(indexes, options.nodeName);
  const percent = (ratio: number | null): string =>
    ratio === null ? "no share" : `${Math.round(ratio * 100)}%`;
  const withUsage = (budget: BudgetRef): string =>
    `${label(budget)} (at ${percent(budget.usageRatio)} of its ${shareLabel})`;
  const above = (count: number, whose = "its budget"): string =>
    count === 0
      ? `no budget ranks above ${whose}`
      : `${plural(count, "budget ranks", "budgets rank")} above ${whose}`;
  const shape = (needGpus: number, isWholeNodes: boolean, layout?: NodeLayout): string =>
    `needs ${describeNeed(needGpus, isWholeNodes, layout)}`;
  // The comparison that decided between two budgets (docs/ranking.md): where their paths part,
  // both sides' usage there, then the leaves' own figures. Siblings are their own parting. Each
  // pair is written so that the two figures differ (ratio-pair.ts); the pair that decided says
  // so when they cannot.
  const levelNote = (level: RatioPair["level"]): string =>
    level === "rounded"
      ? `, level to within ${(10 ** -MAX_PAIR_DECIMALS).toFixed(MAX_PAIR_DECIMALS)}%: ` +
        "the unrounded figures decide"
      : level === "exact"
        ? ", level: the ranking's tie rules decide"
        : "";
  const partingLead = (parting: Parting): string => {
    const pair = formatRatioPair(parting.higher.usageRatio, parting.lower.usageRatio);
    return (
      `${parting.higher.path} (at ${pair.higher} of its ${shareLabel}) ranks above ` +
      `${parting.lower.path} (at ${pair.lower}${levelNote(pair.level)}), where the two ` +
      `budgets' branches part, so `
    );
  };
  const compare = (
    higher: BudgetRef,
    lower: BudgetRef,
    parting: Parting | null | undefined,
    verb = "ranks above",
  ): string => {
    const pair = formatRatioPair(higher.usageRatio, lower.usageRatio);
    const isDeciding = !parting || isSiblings(parting, higher, lower);
    // A leaf that is itself one side of the parting (a project's budget beside another
    // project's researchers) is named twice: the same figure both times ("4.1%", not "4%").
    const sides =
      !isDeciding && parting
        ? formatRatioPair(parting.higher.usageRatio, parting.lower.usageRatio)
        : null;
    const higherFigure = sides && parting?.higher.path === higher.path ? sides.higher : pair.higher;
    const lowerFigure = sides && parting?.lower.path === lower.path ? sides.lower : pair.lower;
    const leaves =
      `${label(higher)} (at ${higherFigure} of its ${shareLabel}) ${verb} ${label(lower)} ` +
      `(at ${lowerFigure}${isDeciding ? levelNote(pair.level) : ""})`;
    if (!parting) return leaves;
    return isSiblings(parting, higher, lower)
      ? `${leaves}, its sibling, so their own figures decide`
      : partingLead(parting) + leaves;
  };
  const outcome = (value: "requeued" | "preempted"): string =>
    value === "requeued"
      ? "The job was requeued with its remaining work."
      : "The job is not resumable and ends as preempted.";

  return {
    time,
    duration,
    label,
    percent,
    withUsage,
    above,
    shape,
    isSiblings,
    compare,
    outcome,
    nodes,
  };
}
