// The two ends of a what-if run (worker side): read the period's demand and build the draft
// scenario (and the control's, when asked for); then, from the replays, the side-by-side summary
// the pages show.
import type { Db } from "../../data/db/client";
import {
  loadDemandClusters,
  loadDemandJobs,
  loadDraftAndTree,
  loadHappened,
  readWhatIfOptions,
} from "../store/what-if-store";
import { parseScenario, type Scenario } from "../../sim";
import {
  compareOutcomes,
  outcomeFromPeriodReport,
  outcomeFromReport,
  type JobWait,
} from "../what-if/compare";
import {
  applyDraftForReplay,
  buildDemandScenarios,
  listActualWaits,
  type DemandJob,
} from "../what-if/demand-scenario";
import type { ReplayHeadline, WhatIfSummary } from "../what-if/summary";
import type { SchedulerSummary } from "../summary";
import type { PeriodReport } from "../../reports/period-report";
import type { BudgetNode } from "../../engine/types";

/** Everything the summary needs besides the replays. */
export type WhatIfContext = {
  draftId: string;
  nodeId: string;
  nodeName: string;
  /** The tree in force at the period's end (the replays' and the rows'), before the draft. */
  tree: BudgetNode[];
  draftTree: BudgetNode[];
  from: Date;
  to: Date;
  clusters: string[];
  jobs: DemandJob[];
  happened: PeriodReport | null;
  stats: WhatIfSummary["stats"];
  loadSec: number;
};

export type PreparedWhatIf =
  | {
      ok: true;
      /** The demand under the current split; null when the control was not asked for. */
      control: Scenario | null;
      draft: Scenario;
      context: WhatIfContext;
    }
  | { ok: false; message: string };

/** One replay's summary and its jobs' waits (seconds, in scenario order; null: never started). */
export type ReplayOutcome = { summary: SchedulerSummary; waits: (number | null)[] };

/** Reads the draft, the tree, the clusters and the period's demand; builds the scenarios. */
export async function prepareWhatIf(
  db: Db,
  draftId: string,
  options: unknown,
  nowSec: number,
): Promise<PreparedWhatIf> {
  const startedMs = performance.now();
  const period = readWhatIfOptions(options);
  const fromSec = period.from.getTime() / 1000;
  const toSec = period.to.getTime() / 1000;
  const [draft, clusters, jobs, happened] = await Promise.all([
    loadDraftAndTree(db, draftId, toSec - 1),
    loadDemandClusters(db, period.clusters),
    loadDemandJobs(db, period),
    loadHappened(db, period),
  ]);
  if (!draft.tree.some((node) => node.id === draft.nodeId)) {
    return {
      ok: false,
      message: `${draft.nodeName} did not exist yet at the end of the period: there is nothing to replay.`,
    };
  }
  const built = buildDemandScenarios({
    fromSec,
    toSec,
    nowSec,
    tree: draft.tree,
    nodeId: draft.nodeId,
    draftChildren: draft.children,
    clusters,
    jobs,
  });
  if (!built.ok) return { ok: false, message: built.issues.map((i) => i.message).join(" ") };
  const control = period.hasControl ? parseScenario(built.control) : null;
  const drafted = parseScenario(built.draft);
  const problem =
    control && !control.ok ? control.issues[0] : !drafted.ok ? drafted.issues[0] : undefined;
  if ((control && !control.ok) || !drafted.ok) {
    return {
      ok: false,
      message: `The replay's scenario is not valid: ${problem?.path}: ${problem?.message}`,
    };
  }
  return {
    ok: true,
    control: control?.value ?? null,
    draft: drafted.value,
    context: {
      draftId,
      nodeId: draft.nodeId,
      nodeName: draft.nodeName,
      tree: draft.tree,
      draftTree: applyDraftForReplay(draft.tree, draft.nodeId, draft.children),
      from: period.from,
      to: period.to,
      clusters: clusters.map((cluster) => cluster.name),
      jobs,
      happened,
      stats: built.stats,
      loadSec: (performance.now() - startedMs) / 1000,
    },
  };
}

/** Waits of the replayed jobs submitted in the period (carried-over jobs left out). */
function replayWaits(
  scenario: Scenario,
  context: WhatIfContext,
  waits: (number | null)[],
): JobWait[] {
  const fromSec = context.from.getTime() / 1000;
  const carried = new Set(
    context.jobs.filter((job) => job.submittedAtSec < fromSec).map((job) => job.id),
  );
  const horizonSec = scenario.horizonSec ?? 0;
  return scenario.jobs.flatMap((job, index) => {
    if (carried.has(job.id)) return [];
    const waitSec = waits[index] ?? horizonSec - job.submitSec;
    return [
      {
        budgetId: job.budgetId.slice(job.budgetId.lastIndexOf("/") + 1),
        jobClass: job.jobClass,
        waitSec,
      },
    ];
  });
}

function headlineOf(summary: SchedulerSummary): ReplayHeadline {
  return {
    utilisation: summary.utilisation,
    fulfilment: summary.fulfilment,
    unallocatedShare: summary.unallocatedShare,
    preemptions: summary.preemptions,
  };
}

/** The stored result of a what-if, from its replays (`current`: the control, when it ran). */
export function summariseWhatIf(
  prepared: Extract<PreparedWhatIf, { ok: true }>,
  current: ReplayOutcome | null,
  draft: ReplayOutcome,
  simulateSec: number,
): WhatIfSummary {
  const { context } = prepared;
  const fromSec = context.from.getTime() / 1000;
  const toSec = context.to.getTime() / 1000;
  const happened = context.happened
    ? outcomeFromPeriodReport(context.happened, listActualWaits(context.jobs, fromSec, toSec))
    : null;
  const rows = compareOutcomes({
    tree: context.tree,
    draftTree: context.draftTree,
    nodeId: context.nodeId,
    happened,
    current:
      current && prepared.control
        ? outcomeFromReport(
            current.summary.budgets,
            replayWaits(prepared.control, context, current.waits),
          )
        : null,
    draft: outcomeFromReport(
      draft.summary.budgets,
      replayWaits(prepared.draft, context, draft.waits),
    ),
  });
  const classes = new Set<string>();
  for (const row of rows) {
    for (const figures of [row.happened, row.current, row.draft]) {
      for (const jobClass of Object.keys(figures?.waits ?? {})) classes.add(jobClass);
    }
  }
  return {
    kind: "what-if",
    nodeId: context.nodeId,
    nodeName: context.nodeName,
    from: context.from.toISOString(),
    to: context.to.toISOString(),
    clusters: context.clusters,
    happenedSource: happened ? "roll-ups" : "none",
    stats: context.stats,
    classes: [...classes].sort(),
    rows,
    current: current ? headlineOf(current.summary) : null,
    draft: headlineOf(draft.summary),
    timings: {
      loadSec: Math.round(context.loadSec * 10) / 10,
      simulateSec: Math.round(simulateSec * 10) / 10,
    },
  };
}
