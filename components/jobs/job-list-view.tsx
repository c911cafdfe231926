"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { JOB_LISTS_KEY, jobListQuery } from "@/lib/queries/jobs";
import type { JobListQuery } from "@/lib/validation/job-list";
import { formatShowing, jobListHref } from "./job-list-url";
import { JobListTable } from "./job-list-table";

/**
 * A page of the jobs list, polled (seeded by the server): the count, the notes, the table and
 * the pager. `notes` are the page's own, on values of the URL it did not use; the answer adds
 * why the list is empty or past its end.
 */
export function JobListView({
  query,
  notes: urlNotes,
  viewerId,
  viewerIsAdmin,
}: {
  query: JobListQuery;
  notes: string[];
  viewerId: string;
  viewerIsAdmin: boolean;
}) {
  const queryClient = useQueryClient();
  const { data: list, isError } = useQuery(jobListQuery(query));
  if (!list) return <p>{isError ? "The jobs could not be loaded." : "Loading…"}</p>;
  const notes = [...urlNotes, ...list.notes];
  const isPastEnd = list.total > 0 && query.page > list.pageCount;
  return (
    <>
      <p className="job-list-count" role="status">
        {formatShowing(query.page, query.perPage, list.jobs.length, list.total)}
        {list.pageCount > 1 ? ` · page ${query.page} of ${list.pageCount}` : ""}
        {isError ? " · connection lost, retrying" : ""}
      </p>
      {notes.length > 0 ? (
        <ul className="job-notes" aria-label="Notes on this list">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      {list.jobs.length === 0 ? (
        <p className="job-list-empty">
          {isPastEnd ? (
            <Link href={jobListHref(query, { page: list.pageCount })}>Go to the last page</Link>
          ) : (
            <Link href="/jobs">Clear filters</Link>
          )}
        </p>
      ) : (
        <JobListTable
          jobs={list.jobs}
          query={query}
          nowSec={list.nowSec}
          showPerson={list.scope !== "own"}
          viewerId={viewerId}
          viewerIsAdmin={viewerIsAdmin}
          onCancelled={() => queryClient.invalidateQueries({ queryKey: JOB_LISTS_KEY })}
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
    </>
  );
}
