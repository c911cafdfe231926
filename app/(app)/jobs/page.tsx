import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { CancelButton } from "@/components/jobs/cancel-button";
import { AutoRefresh } from "@/components/layout/auto-refresh";
import { getSessionUser } from "@/lib/auth";
import { getNow } from "@/lib/data/clock";
import { listJobsOfUser } from "@/lib/data/job-views";
import { liveTimeFormatter } from "@/lib/format";
import { ClockNote } from "@/components/layout/clock-note";

export const metadata: Metadata = { title: "My jobs" };

export default async function MyJobsPage() {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  const [jobs, now] = await Promise.all([listJobsOfUser(user.id), getNow()]);
  const clock = liveTimeFormatter(now.getTime() / 1000);
  return (
    <>
      <AutoRefresh seconds={5} />
      <div className="page-head section-head">
        <div>
          <h1>My jobs</h1>
          <p className="muted">
            Your jobs on every cluster, newest first, with their place in line.
          </p>
          <ClockNote />
        </div>
        <Link className="button button-primary" href="/jobs/new">
          Submit a job
        </Link>
      </div>
      <section className="card" aria-labelledby="jobs-heading">
        <h2 id="jobs-heading" className="sr-only">
          Jobs
        </h2>
        {jobs.length === 0 ? (
          <p>
            No jobs yet. <Link href="/jobs/new">Submit one</Link>.
          </p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Job</th>
                  <th scope="col">Cluster</th>
                  <th scope="col">Budget</th>
                  <th scope="col" className="num">
                    GPUs
                  </th>
                  <th scope="col">State</th>
                  <th scope="col" className="num">
                    Place · rank
                  </th>
                  <th scope="col">Why</th>
                  <th scope="col">Submitted</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {jobs.map((job) => (
                  <tr key={job.id}>
                    <th scope="row" className="tree-row-head">
                      <Link href={`/jobs/${job.id}`}>{job.name}</Link>
                    </th>
                    <td>
                      <Link href={`/clusters/${job.cluster}`}>{job.cluster}</Link>
                    </td>
                    <td>{job.budgetPath}</td>
                    <td className="num">{job.gpus}</td>
                    <td>
                      <span className={`pill pill-state-${job.state}`}>{job.state}</span>
                    </td>
                    <td className="num">
                      {job.queuePosition !== null ? `#${job.queuePosition}` : "–"} ·{" "}
                      {job.rank ?? "–"}
                    </td>
                    <td className="why">{job.waitSentence ?? ""}</td>
                    <td>{clock(job.submittedSec)}</td>
                    <td>
                      {job.state === "pending" || job.state === "running" ? (
                        <CancelButton jobId={job.id} jobName={job.name} />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
