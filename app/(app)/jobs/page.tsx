import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { JobListFilters } from "@/components/jobs/job-list-filters";
import { JobListTable } from "@/components/jobs/job-list-table";
import { formatShowing, jobListHref } from "@/components/jobs/job-list-url";
import "@/components/jobs/job-list.css";
import { AutoRefresh } from "@/components/layout/auto-refresh";
import { ClockNote } from "@/components/layout/clock-note";
import { getSessionUser } from "@/lib/auth";
import { getNow } from "@/lib/data/db/clock";
import { listJobFilterOptions, listJobs } from "@/lib/data/job-list";
import { firstValues, parseJobListQuery } from "@/lib/validation/job-list";
import { Card } from "@/components/layout/card";
import { PageHead } from "@/components/layout/page-head";

export const metadata: Metadata = { title: "Jobs" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const SCOPE_TEXT = {
  own: "Your jobs on every cluster.",
  branch: "Your jobs and those charged to the budgets you lead.",
  all: "Everyone's jobs on every cluster (you are an admin).",
} as const;

export default async function JobsPage({ searchParams }: Props) {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  const { query, notes: queryNotes } = parseJobListQuery(firstValues(await searchParams));
  const [list, options, now] = await Promise.all([
    listJobs(user, query, "lenient"),
    listJobFilterOptions(user),
    getNow(),
  ]);
  const notes = [...queryNotes, ...list.notes];
  const isPastEnd = list.total > 0 && query.page > list.pageCount;
  return (
    <>
      <AutoRefresh seconds={10} />
      <PageHead
        title="Jobs"
        actions={
          <p className="card-links">
            <Link href="/queue">Queues of every cluster</Link>
            <Link className="button button-primary" href="/jobs/new">
              Submit a job
            </Link>
          </p>
        }
      >
        <p className="muted">{SCOPE_TEXT[list.scope]} Newest first unless you sort.</p>
        <ClockNote />
      </PageHead>
      <Card title="Filters" headingId="filters-heading" isTitleHidden>
        <JobListFilters query={query} options={options} />
      </Card>
      <Card title="Jobs" headingId="jobs-heading" isTitleHidden>
        <p className="job-list-count" role="status">
          {formatShowing(query.page, query.perPage, list.jobs.length, list.total)}
          {list.pageCount > 1 ? ` · page ${query.page} of ${list.pageCount}` : ""}
        </p>
        {notes.length > 0 ? (
          <ul className="job-notes" aria-label="Notes on this list">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        ) : null}
        {list.jobs.length === 0 ? (
          <p>
            {list.total === 0 && list.scope === "own" && notes.length === 0 ? (
              <>
                No jobs yet. <Link href="/jobs/new">Submit one</Link>.
              </>
            ) : isPastEnd ? (
              <Link href={jobListHref(query, { page: list.pageCount })}>Go to the last page</Link>
            ) : (
              <Link href="/jobs">Clear filters</Link>
            )}
          </p>
        ) : (
          <JobListTable
            jobs={list.jobs}
            query={query}
            nowSec={now.getTime() / 1000}
            showPerson={list.scope !== "own"}
            viewerId={user.id}
            viewerIsAdmin={user.isAdmin}
          />
        )}
        {list.pageCount > 1 ? (
          <nav className="job-pager" aria-label="Pages">
            {query.page > 1 ? (
              <Link href={jobListHref(query, { page: Math.min(query.page - 1, list.pageCount) })}>
                Previous page
              </Link>
            ) : null}
            <span>
              Page {Math.min(query.page, list.pageCount)} of {list.pageCount}
            </span>
            {query.page < list.pageCount ? (
              <Link href={jobListHref(query, { page: query.page + 1 })}>Next page</Link>
            ) : null}
          </nav>
        ) : null}
      </Card>
    </>
  );
}
