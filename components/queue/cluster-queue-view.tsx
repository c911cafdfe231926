"use client";

import { useQuery } from "@tanstack/react-query";
import { GpuBar } from "@/components/clusters/gpu-bar";
import { clusterQueueQuery } from "@/lib/queries/clusters";
import { formatInteger, liveTimeFormatter } from "@/lib/format";
import { BudgetRanks } from "./budget-ranks";
import Link from "next/link";
import { START_ESTIMATE_CONDITIONS } from "@/lib/engine/start-estimate";
import { PendingTable, RunningTable } from "./queue-tables";
import { Card } from "@/components/layout/card";

/**
 * The live queue of one cluster, polled through the API (prefetched on the server). The viewer's
 * own jobs are marked; `isMineOnly` (the URL's `?mine=1`) shows only those.
 */
export function ClusterQueueView({
  cluster,
  viewerId,
  isMineOnly,
}: {
  cluster: string;
  viewerId: string;
  isMineOnly: boolean;
}) {
  const { data, isError } = useQuery(clusterQueueQuery(cluster));
  if (!data) return <p>{isError ? "The queue could not be loaded." : "Loading…"}</p>;
  const pending = isMineOnly ? data.pending.filter((job) => job.userId === viewerId) : data.pending;
  const running = isMineOnly ? data.running.filter((run) => run.userId === viewerId) : data.running;
  const load = data.cluster;
  const clock = liveTimeFormatter(data.nowSec);
  return (
    <>
      <Card
        title="GPUs now"
        headingId="load-heading"
        actions={
          <span className="muted" aria-live="polite">
            Cluster clock {clock(data.nowSec)}
            {load.tickedAtSec !== null ? ` · scheduled at ${clock(load.tickedAtSec)}` : ""}
            {isError ? " · connection lost, retrying" : ""}
          </span>
        }
      >
        <GpuBar split={load} clusterName={load.name} />
        <p className="muted">
          {formatInteger(data.pendingTotal)} jobs pending for {formatInteger(load.pendingGpus)}{" "}
          GPUs.
        </p>
      </Card>
      <Card
        title="Pending, in queue order"
        headingId="pending-heading"
        actions={
          <p className="card-links" aria-label="Whose jobs">
            <Link className="mine-toggle" href={`/clusters/${cluster}`} aria-current={!isMineOnly}>
              All jobs
            </Link>
            <Link
              className="mine-toggle"
              href={`/clusters/${cluster}?mine=1`}
              aria-current={isMineOnly}
            >
              Mine only
            </Link>
          </p>
        }
      >
        <p className="muted">
          Allocated work by budget rank, then priority within a budget, then submit time;
          unallocated work (minimum runtime 0) after it.
          {data.pendingTotal > data.pending.length
            ? ` Showing the first ${data.pending.length} of ${formatInteger(data.pendingTotal)}.`
            : ""}
        </p>
        <PendingTable
          jobs={pending}
          nowSec={data.nowSec}
          rankedBudgets={data.rankedBudgets}
          viewerId={viewerId}
          emptyText={isMineOnly ? "None of your jobs is waiting here." : "No job is waiting."}
        />
        <p className="fine-print">{START_ESTIMATE_CONDITIONS}</p>
      </Card>
      <Card title="Running" headingId="running-heading">
        <RunningTable
          runs={running}
          nowSec={data.nowSec}
          viewerId={viewerId}
          emptyText={isMineOnly ? "None of your jobs runs here." : "Nothing is running."}
        />
      </Card>
      <section className="card" id="ranks" aria-labelledby="ranks-heading">
        <h2 id="ranks-heading">Budgets by Fair Tree rank</h2>
        <p className="muted">
          Fair Tree compares siblings first: at each level the branch that used less of its share
          (higher level fair-share) goes first, and everything below it ranks ahead of everything
          below its sibling. So a budget can rank ahead of one with a lower usage of share when its
          program or project used less of theirs. Usage of share is use over the window divided by
          what the budget is owed (below 100%: under-served).
        </p>
        <BudgetRanks tree={data.tree} lookbackSec={data.lookbackSec} />
      </section>
    </>
  );
}
