// The what-if chart's bars (docs/fulfilment.md): a draft changes the split among one node's
// children, so the chart groups the branch by them (a program, or a project), and keeps it
// legible when there are many: the largest changes first, the rest in one "others" bar.
// Pure, and free of the engine: the chart (a client component) imports it.
import type { WhatIfRow } from "./compare";

/** At most this many bars: the largest changes, the last bar summing the others. */
export const CHART_BAR_LIMIT = 12;

/** One bar group of the chart, GPU-hours rounded to whole hours. */
export type ChartBar = {
  name: string;
  happened: number;
  current: number;
  draft: number;
  /** Entitled before the draft: the control's, else as it happened. */
  entitledNow: number;
  entitledDraft: number;
  /** How many budgets (children of the branch) the bar stands for: 1, or more for "others". */
  budgets: number;
};

function barOf(row: WhatIfRow): ChartBar {
  const before = row.current ?? row.happened;
  return {
    name: row.label,
    happened: row.happened?.receivedGpuHours ?? 0,
    current: row.current?.receivedGpuHours ?? 0,
    draft: row.draft.receivedGpuHours,
    entitledNow: before?.entitledGpuHours ?? 0,
    entitledDraft: row.draft.entitledGpuHours,
    budgets: 1,
  };
}

/** Received with the draft minus received before it (the control, else what happened). */
function changeOf(bar: ChartBar, hasControl: boolean): number {
  return bar.draft - (hasControl ? bar.current : bar.happened);
}

/**
 * The chart's bars: one per child of the branch (depth 1 rows: what the draft reweights), in
 * tree order; with more than `limit`, the `limit - 1` with the largest absolute change in
 * received GPU-hours (in tree order still) and one bar summing the others.
 *
 * @example selectChartBars(summary.rows, true).map((bar) => bar.name) // ["language", "vision", ...]
 */
export function selectChartBars(
  rows: readonly WhatIfRow[],
  hasControl: boolean,
  limit = CHART_BAR_LIMIT,
): ChartBar[] {
  // A what-if stored before rows had a depth listed the total and leaves only.
  const children = rows.filter((row) => !row.isTotal && (row.depth ?? 1) === 1);
  const bars = children.map(barOf);
  const round = (bar: ChartBar): ChartBar => ({
    ...bar,
    happened: Math.round(bar.happened),
    current: Math.round(bar.current),
    draft: Math.round(bar.draft),
    entitledNow: Math.round(bar.entitledNow),
    entitledDraft: Math.round(bar.entitledDraft),
  });
  if (bars.length <= limit) return bars.map(round);
  const keep = new Set(
    bars
      .map((bar, index) => ({ index, change: Math.abs(changeOf(bar, hasControl)) }))
      .sort((a, b) => b.change - a.change || a.index - b.index)
      .slice(0, limit - 1)
      .map((entry) => entry.index),
  );
  const others: ChartBar = {
    name: "",
    happened: 0,
    current: 0,
    draft: 0,
    entitledNow: 0,
    entitledDraft: 0,
    budgets: 0,
  };
  const kept: ChartBar[] = [];
  bars.forEach((bar, index) => {
    if (keep.has(index)) {
      kept.push(bar);
      return;
    }
    others.happened += bar.happened;
    others.current += bar.current;
    others.draft += bar.draft;
    others.entitledNow += bar.entitledNow;
    others.entitledDraft += bar.entitledDraft;
    others.budgets += 1;
  });
  others.name = `${others.budgets} others`;
  return [...kept, others].map(round);
}
