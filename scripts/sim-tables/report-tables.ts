import { formatNumber, formatShare } from "../../lib/format";
import { formatHumanDuration, type BudgetSummary, type SimulationReport } from "../../lib/sim";
import { formatMarkdownTable } from "./markdown";

/** What `allot simulate --scheduler both --out` writes. */
export type BothReports = { baseline: SimulationReport; allocation: SimulationReport };

/** Leaf budgets summed up to a prefix of their path (a project, a program). */
export type BudgetGroup = {
  path: string;
  effectiveShare: number;
  entitledGpuHours: number;
  receivedGpuHours: number;
  unallocatedGpuHours: number;
  /** Sum over the leaves of fulfilment x entitled: min(received, entitled) of each, added up. */
  fulfilledGpuHours: number;
  preemptions: number;
};

const SCHEDULERS = ["baseline", "allocation"] as const;

/**
 * Busy GPU-seconds in [0, endSec) over `gpus x endSec`: utilisation of the nominal cluster up to
 * a moment (e.g. the last submission), ignoring node health.
 *
 * @example computeUtilisationUntil(report, 384, 109 * 86_400)
 */
export function computeUtilisationUntil(
  report: Pick<SimulationReport, "jobs">,
  gpus: number,
  endSec: number,
): number {
  if (gpus <= 0 || endSec <= 0) return 0;
  let busyGpuSec = 0;
  for (const job of report.jobs) {
    for (const run of job.runs) {
      const overlapSec = Math.min(run.endSec, endSec) - run.startSec;
      if (overlapSec > 0) busyGpuSec += run.gpus * overlapSec;
    }
  }
  return busyGpuSec / (gpus * endSec);
}

/**
 * Sums leaf budgets by the first `depth` parts of their path, in decreasing share (then path).
 *
 * @example groupBudgets(report.budgets, 2) // "llm/pretrain/r001" and "llm/pretrain/r002" -> "llm/pretrain"
 */
export function groupBudgets(budgets: readonly BudgetSummary[], depth: number): BudgetGroup[] {
  const groups = new Map<string, BudgetGroup>();
  for (const budget of budgets) {
    const path = budget.path.split("/").slice(0, depth).join("/");
    const group = groups.get(path) ?? {
      path,
      effectiveShare: 0,
      entitledGpuHours: 0,
      receivedGpuHours: 0,
      unallocatedGpuHours: 0,
      fulfilledGpuHours: 0,
      preemptions: 0,
    };
    group.effectiveShare += budget.effectiveShare;
    group.entitledGpuHours += budget.entitledGpuHours;
    group.receivedGpuHours += budget.receivedGpuHours;
    group.unallocatedGpuHours += budget.unallocatedGpuHours;
    group.fulfilledGpuHours += (budget.fulfilment ?? 0) * budget.entitledGpuHours;
    group.preemptions += budget.preemptions;
    groups.set(path, group);
  }
  return [...groups.values()].sort(
    (a, b) => b.effectiveShare - a.effectiveShare || a.path.localeCompare(b.path),
  );
}

/** Fulfilment of a group: met over entitled, null when entitled to nothing. */
export function groupFulfilment(group: BudgetGroup): number | null {
  return group.entitledGpuHours > 0 ? group.fulfilledGpuHours / group.entitledGpuHours : null;
}

/**
 * The headline table: one row per figure, one column per scheduler. `until` adds the utilisation
 * of `gpus` nominal GPUs up to `sec` (e.g. the last submission), named by `label`.
 */
export function formatHeadlineTable(
  reports: BothReports,
  until?: { sec: number; gpus: number; label: string },
): string {
  const row = (label: string, value: (report: SimulationReport) => string): string[] => [
    label,
    ...SCHEDULERS.map((name) => value(reports[name])),
  ];
  const rows = [
    row("utilisation (busy / available GPU-h)", (r) => formatShare(r.utilisation, "-")),
    ...(until
      ? [
          row(`utilisation to ${until.label}, nominal GPUs`, (r) =>
            formatShare(computeUtilisationUntil(r, until.gpus, until.sec), "-"),
          ),
        ]
      : []),
    row("unallocated share of GPU time", (r) => formatShare(r.unallocatedShare, "-")),
    row("fulfilment over the period (docs/fulfilment.md)", (r) => formatShare(r.fulfilment, "-")),
    row("hour-by-hour fulfilment", (r) => formatShare(r.hourlyFulfilment, "-")),
    row("fulfilment vs work-conserving entitlement", (r) =>
      formatShare(r.workConservingFulfilment, "-"),
    ),
    row("preemptions", (r) => formatNumber(r.preemptions)),
    row("automated drains", (r) => formatNumber(r.automatedDrains)),
  ];
  return formatMarkdownTable(["", ...SCHEDULERS], rows, ["left", "right", "right"]);
}

/** Queue wait p50 and p90 by job class under both schedulers. */
export function formatWaitTable(reports: BothReports): string {
  const classes = Object.keys(reports.allocation.classes).sort();
  const rows = classes.map((name) => {
    const waits = SCHEDULERS.flatMap((scheduler) => {
      const summary = reports[scheduler].classes[name];
      return summary
        ? [formatHumanDuration(summary.waitP50Sec), formatHumanDuration(summary.waitP90Sec)]
        : ["-", "-"];
    });
    return [name, formatNumber(reports.allocation.classes[name]?.jobs ?? 0), ...waits];
  });
  return formatMarkdownTable(
    ["class", "jobs", "baseline p50", "baseline p90", "allocation p50", "allocation p90"],
    rows,
    ["left", "right", "right", "right", "right", "right"],
  );
}

/**
 * Per group of budgets (leaves summed to `depth`): share, then for each scheduler entitled,
 * received (allocation: with its unallocated part), fulfilment and preemptions. Entitled hours
 * differ between schedulers because demand counts the hours a job waits.
 */
export function formatBudgetTable(reports: BothReports, depth: number): string {
  const baseline = new Map(groupBudgets(reports.baseline.budgets, depth).map((g) => [g.path, g]));
  const rows = groupBudgets(reports.allocation.budgets, depth).map((allocation) => {
    const before = baseline.get(allocation.path);
    const hours = (value: number | undefined) => (value === undefined ? "-" : formatNumber(value));
    return [
      allocation.path,
      `${(allocation.effectiveShare * 100).toFixed(2)}%`,
      hours(before?.entitledGpuHours),
      hours(before?.receivedGpuHours),
      before ? formatShare(groupFulfilment(before), "-") : "-",
      hours(before?.preemptions),
      hours(allocation.entitledGpuHours),
      `${hours(allocation.receivedGpuHours)} (${hours(allocation.unallocatedGpuHours)})`,
      formatShare(groupFulfilment(allocation), "-"),
      hours(allocation.preemptions),
    ];
  });
  return formatMarkdownTable(
    [
      "budget",
      "share",
      "baseline: entitled GPU-h",
      "received",
      "fulfilment",
      "preemptions",
      "allocation: entitled GPU-h",
      "received (unallocated)",
      "fulfilment",
      "preemptions",
    ],
    rows,
    ["left", ...Array<"right">(9).fill("right")],
  );
}
