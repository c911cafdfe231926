import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { JobListFilters } from "@/components/jobs/job-list-filters";
import { JobListView } from "@/components/jobs/job-list-view";
import "@/components/jobs/job-list.css";
import { ClockNote } from "@/components/layout/clock-note";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { getSessionUser } from "@/lib/auth";
import { dropUnknownFilters, listJobFilterOptions, listJobs } from "@/lib/data/job-list";
import { jobListQuery } from "@/lib/queries/jobs";
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
  // Lenient where the API is strict: values the list cannot use are dropped with a note, and
  // the rest is a query GET /api/v1/jobs accepts, seeded here and polled by the browser.
  const parsed = parseJobListQuery(firstValues(await searchParams));
  const { query, notes: filterNotes } = await dropUnknownFilters(parsed.query);
  const [list, options] = await Promise.all([listJobs(user, query), listJobFilterOptions(user)]);
  return (
    <>
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
        <PrefetchedQueries seeds={[seedQuery(jobListQuery(query), list)]}>
          <JobListView
            query={query}
            notes={[...parsed.notes, ...filterNotes]}
            viewerId={user.id}
            viewerIsAdmin={user.isAdmin}
          />
        </PrefetchedQueries>
      </Card>
    </>
  );
}
