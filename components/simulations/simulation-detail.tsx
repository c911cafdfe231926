"use client";

import { useQuery } from "@tanstack/react-query";
import { GpuTimeline } from "@/components/timeline/gpu-timeline";
import { sharedHorizonSec } from "@/components/timeline/timeline-layout";
import { formatInteger } from "@/lib/format";
import { formatDurationSec } from "@/lib/sim/duration";
import { BudgetChart } from "./budget-chart";
import { BudgetTable } from "./budget-table";
import { ResultsTable } from "./results-table";
import { ProgressCard } from "./progress-card";
import { PHILLY_CITATION } from "./sim-labels";
import { simulationQuery, timelineQuery } from "@/lib/queries/simulations";
import { WaitChart } from "./wait-chart";
import { Card } from "@/components/layout/card";

/** A simulation's page body: progress while it runs, then results and timelines. */
export function SimulationDetail({ id }: { id: string }) {
  const { data: simulation } = useQuery(simulationQuery(id));
  if (!simulation) return <p>Loading…</p>;
  const isDone = simulation.status === "done";
  const citation =
    simulation.source === "philly" ? (
      <p className="citation">
        Workload: {PHILLY_CITATION} (CC-BY-4.0), 82,247 jobs of Microsoft&apos;s Philly cluster,
        2017.
      </p>
    ) : null;
  if (simulation.status === "failed") {
    return (
      <div className="alert" role="alert">
        <strong>The simulation failed.</strong>
        <pre className="error-text">{simulation.error}</pre>
      </div>
    );
  }
  if (!isDone || !simulation.summary) {
    return (
      <ProgressCard
        status={simulation.status}
        progress={simulation.progress}
        phase={simulation.phase}
        title="Simulating"
        label="Simulation progress"
      >
        {citation}
      </ProgressCard>
    );
  }
  const summary = simulation.summary;
  return (
    <>
      <Card
        title="Results"
        headingId="results-heading"
        actions={
          <a className="button" href={`/api/v1/simulations/${simulation.id}/report`} download>
            Download report JSON
          </a>
        }
      >
        <p className="muted">
          {formatInteger(summary.jobCount)} jobs on{" "}
          {summary.clusters
            .map((c) => `${c.name} (${formatInteger(c.gpus)} ${c.gpuType})`)
            .join(", ")}
          ; lookback {formatDurationSec(summary.lookbackSec)}, minimum runtimes capped at{" "}
          {formatDurationSec(summary.maxMinRuntimeSec)}.
        </p>
        {citation}
        <ResultsTable summary={summary} />
      </Card>
      <section className="chart-grid" aria-label="Charts">
        <WaitChart summary={summary} />
        <BudgetChart summary={summary} />
      </section>
      <BudgetTable summary={summary} />
      <Timelines id={simulation.id} />
    </>
  );
}

function Timelines({ id }: { id: string }) {
  const { data, error, isPending } = useQuery(timelineQuery(id));
  const axisHorizonSec = data ? sharedHorizonSec(Object.values(data)) : undefined;
  return (
    <Card title="GPU timeline" headingId="timeline-heading">
      <p className="muted">
        One row per GPU, one bar per run, coloured by program with a shade per project.{" "}
        <span className="legend-hatch" aria-hidden="true" /> hatched: unallocated (free,
        preemptible); <span className="legend-preempted" aria-hidden="true" /> edge: preempted. Both
        timelines share one time axis; grey: after that scheduler&apos;s run had ended. Wheel or + −
        to zoom, drag or ← → to pan, 0 for the whole run. Point at or tap a run for its details, or
        step through the runs with ↓ ↑.
      </p>
      {isPending ? <p>Loading the timeline…</p> : null}
      {error ? <p role="alert">The timeline could not be loaded: {error.message}</p> : null}
      {data
        ? Object.entries(data).map(([name, timeline]) => (
            <div key={name} className="timeline-block">
              <h3>{name === "baseline" ? "Baseline (priorities)" : "Allocation (budgets)"}</h3>
              <GpuTimeline data={timeline} label={name} axisHorizonSec={axisHorizonSec} />
            </div>
          ))
        : null}
    </Card>
  );
}
