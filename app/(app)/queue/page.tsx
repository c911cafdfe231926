import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import "@/components/jobs/job-list.css";
import { AutoRefresh } from "@/components/layout/auto-refresh";
import { ClockNote } from "@/components/layout/clock-note";
import { MineMark, PendingTable } from "@/components/queue/queue-tables";
import { getSessionUser } from "@/lib/auth";
import { listJobs, type JobListRow } from "@/lib/data/job-list";
import { getClusterQueue, listClusterLoads } from "@/lib/data/queue";
import { START_ESTIMATE_CONDITIONS } from "@/lib/engine";
import { formatInteger, liveTimeFormatter } from "@/lib/format";
import { withDefaults } from "@/lib/validation/job-list";
import { PageHead } from "@/components/layout/page-head";
import { Card } from "@/components/layout/card";

export const metadata: Metadata = { title: "Queues" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** How many of each cluster's first waiting jobs the page shows. */
const HEAD_ROWS = 10;

function MyJobsTable({ jobs, nowSec }: { jobs: JobListRow[]; nowSec: number }) {
  const clock = liveTimeFormatter(nowSec);
  if (jobs.length === 0) return <p>None of your jobs is waiting or running.</p>;
  return (
    <div className="table-scroll">
      <table>
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
              <th scope="row" className="tree-row-head">
                <Link href={`/jobs/${job.id}`}>{job.name}</Link>
              </th>
              <td>
                <Link href={`/clusters/${job.cluster}?mine=1`}>{job.cluster}</Link>
              </td>
              <td>
                <span className={`pill pill-state-${job.state}`}>{job.state}</span>
              </td>
              <td>
                {job.queuePosition !== null ? `#${job.queuePosition} · ` : ""}
                {job.rank !== null ? `rank ${job.rank} of ${job.rankOf}` : "–"}
              </td>
              <td className="why">{job.waitSummary ?? ""}</td>
              <td className="why">
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
    </div>
  );
}

export default async function QueuesPage({ searchParams }: Props) {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  const isMineOnly = (await searchParams).mine === "1";
  const mine = (state: "pending" | "running") =>
    listJobs(user, withDefaults({ user: user.id, state, sort: "submitted", perPage: 100 }));
  const [pending, running, loads] = await Promise.all([
    mine("pending"),
    mine("running"),
    listClusterLoads(),
  ]);
  const queues = await Promise.all(loads.map((load) => getClusterQueue(load.name)));
  const nowSec = queues[0]?.nowSec ?? 0;
  const myJobs = [...pending.jobs, ...running.jobs];
  return (
    <>
      <AutoRefresh seconds={5} />
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
          Your waiting and running jobs on every cluster first, then the head of each queue.
        </p>
        <ClockNote />
      </PageHead>
      <Card title="Your jobs" headingId="mine-heading">
        <MyJobsTable jobs={myJobs} nowSec={nowSec} />
        {pending.total + running.total > myJobs.length ? (
          <p className="muted">
            <Link href={`/jobs?user=${encodeURIComponent(user.id)}&state=pending`}>
              All {formatInteger(pending.total)} of your waiting jobs
            </Link>
          </p>
        ) : null}
        <p className="fine-print">{START_ESTIMATE_CONDITIONS}</p>
      </Card>
      {queues.map((queue) => {
        const name = queue.cluster.name;
        const rows = isMineOnly
          ? queue.pending.filter((job) => job.userId === user.id)
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
              viewerId={user.id}
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
