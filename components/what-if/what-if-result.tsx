"use client";

import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { ProgressCard } from "@/components/simulations/progress-card";
import {
  formatFulfilment,
  formatGpuHoursNumber,
  formatInteger,
  formatPercent,
  formatWait,
} from "@/lib/format";
import { orderJobClasses } from "@/lib/reports/review-table";
import type { Figures, WhatIfRow } from "@/lib/simulations/what-if/compare";
import type { WhatIfSummary } from "@/lib/simulations/what-if/summary";
import { WhatIfChart } from "./what-if-chart";
import { whatIfQuery } from "@/lib/queries/what-ifs";
import { ScrollRegion } from "@/components/layout/scroll-region";
import { Card } from "@/components/layout/card";

const COLUMNS = [
  { key: "happened", label: "What happened" },
  { key: "current", label: "Replay, current split" },
  { key: "draft", label: "Replay, draft" },
] as const;

/** A what-if's page body: a progress bar while it runs, then the side-by-side result. */
export function WhatIfResult({ draftId, runId }: { draftId: string; runId: string }) {
  const { data: run } = useQuery(whatIfQuery(draftId, runId));
  if (!run) return <p>Loading…</p>;
  if (run.status === "failed") {
    return (
      <div className="alert" role="alert">
        <strong>The what-if failed.</strong>
        <pre className="error-text">{run.error}</pre>
      </div>
    );
  }
  if (run.status !== "done" || !run.summary) {
    return (
      <ProgressCard
        status={run.status}
        progress={run.progress}
        phase={run.phase}
        title="Replaying the period"
        label="What-if progress"
      />
    );
  }
  return <WhatIfTables summary={run.summary} />;
}

function WhatIfTables({ summary }: { summary: WhatIfSummary }) {
  const hasHappened = summary.happenedSource === "roll-ups";
  const control = summary.current;
  const columns = COLUMNS.filter(
    (column) =>
      (hasHappened || column.key !== "happened") && (control !== null || column.key !== "current"),
  );
  const total = summary.rows[0]!;
  const classes = orderJobClasses(summary.classes);
  return (
    <>
      <Card title={<>Results for {summary.nodeName}</>} headingId="results-heading">
        <p className="muted">
          {formatInteger(summary.stats.jobs)} jobs replayed (
          {formatInteger(summary.stats.carriedOver)} carried over from before the period,{" "}
          {formatInteger(summary.stats.workFromObserved)} with their observed run time as work),{" "}
          {formatInteger(summary.stats.gpuHoursRequested)} GPU-hours asked for. Read in{" "}
          {summary.timings.loadSec} s, {control ? "both replays" : "the replay"} took{" "}
          {summary.timings.simulateSec} s.
        </p>
        <ComparisonNote hasHappened={hasHappened} hasControl={control !== null} />
        <p>
          <BranchFigures label="Branch fulfilment" row={total} pick={(f) => f.fulfilment} />{" "}
          <BranchFigures
            label="Hour by hour"
            row={total}
            pick={(f) => f.hourlyFulfilment ?? null}
          />{" "}
          {control ? (
            <>
              All budgets replayed: fulfilment {formatFulfilment(control.fulfilment)} →{" "}
              {formatFulfilment(summary.draft.fulfilment)}, preemptions{" "}
              {formatInteger(control.preemptions)} → {formatInteger(summary.draft.preemptions)}.
            </>
          ) : (
            <>
              All budgets replayed with the draft: fulfilment{" "}
              {formatFulfilment(summary.draft.fulfilment)},{" "}
              {formatInteger(summary.draft.preemptions)} preemptions.
            </>
          )}
        </p>
        <ScrollRegion label="What-if results per budget">
          <table className="what-if-table" aria-label="What-if results per budget">
            <thead>
              <tr>
                <th scope="col">Budget</th>
                <th scope="col">Column</th>
                <th scope="col" className="num">
                  <abbr title="What happened: the share in force over the period, its mean over the period's hours (0 before the budget existed). A replay: the split it replays with, for the whole period">
                    Share
                  </abbr>
                </th>
                <th scope="col" className="num">
                  Entitled GPU-h
                </th>
                <th scope="col" className="num">
                  Received GPU-h
                </th>
                <th scope="col" className="num">
                  of which unallocated
                </th>
                <th scope="col" className="num">
                  Fulfilment
                </th>
                <th scope="col" className="num">
                  <abbr title="Each hour on its own: GPU-hours beyond one hour's entitlement make up for no other hour (docs/fulfilment.md). It differs between splits where the period's figure is 100% for both.">
                    Hour by hour
                  </abbr>
                </th>
                {classes.map((jobClass) => (
                  <th scope="col" className="num" key={jobClass}>
                    {jobClass} wait p50 / p90
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {summary.rows.map((row) => (
                <Fragment key={row.id}>
                  {columns.map((column, index) => (
                    <FigureRow
                      key={column.key}
                      row={row}
                      label={column.label}
                      colour={column.key}
                      figures={row[column.key]}
                      classes={classes}
                      isFirst={index === 0}
                      span={columns.length}
                    />
                  ))}
                </Fragment>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </Card>
      <section className="chart-grid" aria-label="Chart">
        <WhatIfChart summary={summary} />
      </section>
    </>
  );
}

/** What the draft's replay is compared with, when that is not the whole picture. */
function ComparisonNote({
  hasHappened,
  hasControl,
}: {
  hasHappened: boolean;
  hasControl: boolean;
}) {
  if (hasHappened && hasControl) return null;
  if (hasHappened) {
    return (
      <p className="muted" role="note">
        The draft&apos;s replay is compared with what happened, so the simulator&apos;s own
        differences from the live system (a cold start, exact timing) are part of the difference.
        Replay the current split as a control to separate them.
      </p>
    );
  }
  return (
    <p className="warn-text" role="note">
      {hasControl
        ? "No hourly roll-ups cover this period, so what happened cannot be shown: the replay under the current split stands in for it."
        : "No hourly roll-ups cover this period and the current split was not replayed: there is nothing to compare the draft with. Run the what-if again with the control."}
    </p>
  );
}

/**
 * One of the branch's figures in each column it has: "Hour by hour: 87.5% with the draft, 85.1%
 * under the current split (84.0% as it happened)."
 */
function BranchFigures({
  label,
  row,
  pick,
}: {
  label: string;
  row: WhatIfRow;
  pick: (figures: Figures) => number | null;
}) {
  return (
    <>
      {label}: <strong>{formatFulfilment(pick(row.draft))}</strong> with the draft
      {row.current ? (
        <>
          , <strong>{formatFulfilment(pick(row.current))}</strong> under the current split
        </>
      ) : null}
      {row.happened ? <> ({formatFulfilment(pick(row.happened))} as it happened)</> : null}.
    </>
  );
}

function FigureRow({
  row,
  label,
  colour,
  figures,
  classes,
  isFirst,
  span,
}: {
  row: WhatIfRow;
  label: string;
  colour: string;
  figures: Figures | null;
  classes: string[];
  isFirst: boolean;
  span: number;
}) {
  const className = [row.isTotal ? "is-total" : "", isFirst ? "group-start" : ""].join(" ").trim();
  const notes = [
    row.isNew ? "new in the draft" : "",
    row.isLeftOut ? "left out of the draft" : "",
    row.draftLabel ? `draft: ${row.draftLabel}` : "",
  ].filter(Boolean);
  return (
    <tr className={className || undefined}>
      {isFirst ? (
        <th
          scope="rowgroup"
          rowSpan={span}
          className={row.isLeaf ? undefined : "is-branch"}
          style={{ paddingLeft: `${0.5 + (row.depth ?? 1)}rem` }}
        >
          {row.isTotal ? `${row.label} (all)` : row.label}
          {notes.length > 0 ? <span className="hint"> ({notes.join(", ")})</span> : null}
        </th>
      ) : null}
      <td className="column-label">
        <span className="sr-only">{row.isTotal ? `${row.label} (all)` : row.label}, </span>
        <span className={`swatch swatch-${colour}`} aria-hidden="true" />
        {label}
      </td>
      <td className="num">{figures ? formatPercent(figures.effectiveShare) : "–"}</td>
      <td className="num">{figures ? formatGpuHoursNumber(figures.entitledGpuHours) : "–"}</td>
      <td className="num">{figures ? formatGpuHoursNumber(figures.receivedGpuHours) : "–"}</td>
      <td className="num">{figures ? formatGpuHoursNumber(figures.unallocatedGpuHours) : "–"}</td>
      <td className="num">{figures ? formatFulfilment(figures.fulfilment) : "–"}</td>
      <td className="num">{figures ? formatFulfilment(figures.hourlyFulfilment ?? null) : "–"}</td>
      {classes.map((jobClass) => {
        const wait = figures?.waits[jobClass];
        return (
          <td className="num" key={jobClass}>
            {wait ? `${formatWait(wait.p50Sec)} / ${formatWait(wait.p90Sec)}` : "–"}
          </td>
        );
      })}
    </tr>
  );
}
