"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card } from "@/components/layout/card";
import { ClockNote } from "@/components/layout/clock-note";
import { PageHead } from "@/components/layout/page-head";
import { ScrollRegion } from "@/components/layout/scroll-region";
import type { JobListRow } from "@/lib/data/job-list";
import { START_ESTIMATE_CONDITIONS } from "@/lib/engine/start-estimate";
import { formatInteger, liveTimeFormatter } from "@/lib/format";
import { clusterQueueQuery } from "@/lib/queries/clusters";
import { jobListQuery } from "@/lib/queries/jobs";
import type { JobListQuery } from "@/lib/validation/job-list";
import { MineMark, PendingTable } from "./queue-tables";
import "@/components/jobs/job-list.css";

/** How many of each cluster's first waiting jobs the page shows. */
const HEAD_ROWS = 10;

function MyJobsTable({ jobs, nowSec }: { jobs: JobListRow[]; nowSec: number }) {
  const clock = liveTimeFormatter(nowSec);
  if (jobs.length === 0) return <p>None of your jobs is waiting or running.</p>;
  return (
    <ScrollRegion label="Your waiting and running jobs">
      <table className="queue-table rows-as-blocks">
        <caption className="sr-only">Your waiting and running jobs</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Cluster</th>
            <th scope="col">State</th>
            <th scope="col">Place · rank</th>
            <th scope="col">Why waiting</th>
            <th scope="col">Expected start</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id}>
              <th scope="row" className="tree-row-head queue-job">
                <Link href={`/jobs/${job.id}`}>{job.name}</Link>
              </th>
              <td data-label="Cluster">
                <Link href={`/clusters/${job.cluster}?mine=1`}>{job.cluster}</Link>
              </td>
              <td>
                <span className={`pill pill-state-${job.state}`}>{job.state}</span>
              </td>
              <td data-label="Place · rank">
                {job.queuePosition !== null ? `#${job.queuePosition} · ` : ""}
                {job.rank !== null ? `rank ${job.rank} of ${job.rankOf}` : "–"}
              </td>
              <td className="why queue-reason">{job.waitSummary ?? ""}</td>
              <td className="why queue-reason" data-label="Expected start">
                {job.expectedStartAt ? (
                  <span className="start-estimate">
                    by {clock(Date.parse(job.expectedStartAt) / 1000)}
                  </span>
                ) : (
                  (job.startNote ?? "")
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/**
 * The queues page: the viewer's waiting and running jobs, then the head of every cluster's
 * queue, each polled (seeded by the server). `isMineOnly` shows only the viewer's jobs.
 */
export function QueuesView({
  clusterNames,
  mine,
  viewerId,
  isMineOnly,
}: {
  clusterNames: string[];
  /** The jobs-list queries of the viewer's pending and running jobs. */
  mine: { pending: JobListQuery; running: JobListQuery };
  viewerId: string;
  isMineOnly: boolean;
}) {
  const { data: pending } = useQuery(jobListQuery(mine.pending));
  const { data: running } = useQuery(jobListQuery(mine.running));
  const queues = useQueries({
    queries: clusterNames.map((name) => clusterQueueQuery(name)),
    combine: (results) => results.flatMap((result) => (result.data ? [result.data] : [])),
  });
  if (!pending || !running) return <p>Loading…</p>;
  const nowSec = queues[0]?.nowSec ?? 0;
  const myJobs = [...pending.jobs, ...running.jobs];
  return (
    <>
      <PageHead
        title="Queues"
        actions={
          <p className="card-links" aria-label="Whose jobs">
            <Link className="mine-toggle" href="/queue" aria-current={!isMineOnly}>
              All jobs
            </Link>
            <Link className="mine-toggle" href="/queue?mine=1" aria-current={isMineOnly}>
              Mine only
            </Link>
          </p>
        }
      >
        <p className="muted">
          Your waiting and running jobs on every cluster first, then the head of each queue. Why
          jobs wait in this order: <Link href="/docs/ranking.md">how budgets are ranked</Link> and{" "}
          <Link href="/docs/contract.md">the scheduling contract</Link>.
        </p>
        <ClockNote />
      </PageHead>
      <Card title="Your jobs" headingId="mine-heading">
        <MyJobsTable jobs={myJobs} nowSec={nowSec} />
        {pending.total + running.total > myJobs.length ? (
          <p className="muted">
            <Link href={`/jobs?user=${encodeURIComponent(viewerId)}&state=pending`}>
              All {formatInteger(pending.total)} of your waiting jobs
            </Link>
          </p>
        ) : null}
        <p className="fine-print">{START_ESTIMATE_CONDITIONS}</p>
      </Card>
      {queues.map((queue) => {
        const name = queue.cluster.name;
        const rows = isMineOnly
          ? queue.pending.filter((job) => job.userId === viewerId)
          : queue.pending.slice(0, HEAD_ROWS);
        return (
          <section className="card" key={name} aria-labelledby={`queue-${name}`}>
            <div className="section-head">
              <h2 id={`queue-${name}`}>{name}</h2>
              <span className="muted">
                {formatInteger(queue.pendingTotal)} waiting ·{" "}
                <Link href={`/clusters/${name}${isMineOnly ? "?mine=1" : ""}`}>
                  full queue of {name}
                </Link>
              </span>
            </div>
            {!isMineOnly && queue.pendingTotal > rows.length ? (
              <p className="muted">
                The first {rows.length} of {formatInteger(queue.pendingTotal)} in queue order; your
                jobs are marked <MineMark />.
              </p>
            ) : null}
            <PendingTable
              jobs={rows}
              nowSec={queue.nowSec}
              rankedBudgets={queue.rankedBudgets}
              viewerId={viewerId}
              emptyText={
                isMineOnly ? `None of your jobs is waiting on ${name}.` : "No job is waiting."
              }
            />
          </section>
        );
      })}
    </>
  );
}
