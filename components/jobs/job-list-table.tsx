import Link from "next/link";
import { CancelButton } from "@/components/jobs/cancel-button";
import { ScrollRegion } from "@/components/layout/scroll-region";
import type { JobListRow } from "@/lib/data/job-list";
import { liveTimeFormatter } from "@/lib/format";
import type { JobListQuery, JobSort } from "@/lib/validation/job-list";
import { sortHref } from "./job-list-url";

function SortHeader({
  query,
  sort,
  label,
  isNum,
}: {
  query: JobListQuery;
  sort: JobSort;
  label: string;
  isNum?: boolean;
}) {
  const isCurrent = query.sort === sort;
  const ariaSort = isCurrent ? (query.dir === "asc" ? "ascending" : "descending") : undefined;
  return (
    <th scope="col" className={isNum ? "num" : undefined} aria-sort={ariaSort}>
      <Link className="sort-link" href={sortHref(query, sort)}>
        {label}
        {isCurrent ? (query.dir === "asc" ? " ▲" : " ▼") : ""}
        <span className="sr-only">{isCurrent ? ", sorted" : ", sort by this column"}</span>
      </Link>
    </th>
  );
}

function placeAndRank(job: JobListRow): string {
  const rank = job.rank === null ? null : `rank ${job.rank} of ${job.rankOf ?? "?"}`;
  if (job.queuePosition !== null) return `#${job.queuePosition}${rank ? ` · ${rank}` : ""}`;
  return rank ?? "–";
}

/**
 * One page of jobs; the person column shows when the caller sees others' jobs. `onCancelled`
 * refetches what shows the jobs after a cancel.
 */
export function JobListTable({
  jobs,
  query,
  nowSec,
  showPerson,
  viewerId,
  viewerIsAdmin,
  onCancelled,
}: {
  jobs: JobListRow[];
  query: JobListQuery;
  nowSec: number;
  showPerson: boolean;
  viewerId: string;
  viewerIsAdmin: boolean;
  onCancelled: () => unknown;
}) {
  const clock = liveTimeFormatter(nowSec);
  return (
    <ScrollRegion label="Jobs">
      <table className="job-table rows-as-blocks">
        <caption className="sr-only">Jobs</caption>
        <thead>
          <tr>
            <SortHeader query={query} sort="name" label="Job" />
            <SortHeader query={query} sort="cluster" label="Cluster" />
            <th scope="col">Budget</th>
            {showPerson ? <th scope="col">Person</th> : null}
            <SortHeader query={query} sort="gpus" label="GPUs" isNum />
            <SortHeader query={query} sort="state" label="State" />
            <th scope="col">Place · rank</th>
            <th scope="col">Why waiting · expected start</th>
            <SortHeader query={query} sort="submitted" label="Submitted" />
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id}>
              <th scope="row" className="tree-row-head job-name">
                <Link href={`/jobs/${job.id}`}>{job.name}</Link>
                {job.externalId === null ? null : (
                  <div className="muted">SLURM job {job.externalId}</div>
                )}
              </th>
              <td data-label="Cluster">
                <Link href={`/clusters/${job.cluster}`}>{job.cluster}</Link>
              </td>
              <td data-label="Budget">{job.budgetPath}</td>
              {showPerson ? <td data-label="Person">{job.user.name}</td> : null}
              <td className="num" data-label="GPUs">
                {job.gpus}
              </td>
              <td data-label="State">
                <span className={`pill pill-state-${job.state}`}>{job.state}</span>
              </td>
              <td data-label="Place · rank">{placeAndRank(job)}</td>
              <td className="why job-reason">
                {job.expectedStartAt ? (
                  <div className="start-estimate">
                    Expected to start by {clock(Date.parse(job.expectedStartAt) / 1000)}
                  </div>
                ) : null}
                {job.waitSummary}
              </td>
              <td data-label="Submitted">{clock(job.submittedSec)}</td>
              <td className="job-actions">
                {(job.state === "pending" || job.state === "running") &&
                (job.user.id === viewerId || viewerIsAdmin) ? (
                  <CancelButton jobId={job.id} jobName={job.name} onCancelled={onCancelled} />
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
