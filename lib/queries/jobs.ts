// React Query options of the jobs pages: a job (polled while it is pending or running) and pages
// of the jobs list.
import { queryOptions } from "@tanstack/react-query";
import { getJob, listJobs } from "@/lib/api-client/jobs";
import type { JobListQuery } from "@/lib/validation/job-list";

/** How often an open job's page polls, in milliseconds. */
export const JOB_POLL_MS = 5000;

export function jobQuery(jobId: string) {
  return queryOptions({
    queryKey: ["job", jobId],
    queryFn: () => getJob(jobId),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === "pending" || state === "running" ? JOB_POLL_MS : false;
    },
  });
}

/** How often a polled page of jobs is asked for again, in milliseconds. */
export const JOB_LIST_POLL_MS = 5000;

/** The key every page of the jobs list starts with: invalidate it after a write to any job. */
export const JOB_LISTS_KEY = ["jobs"] as const;

/** A page of the jobs list for `query` (with its defaults: lib/validation/job-list.ts). */
export function jobListQuery(query: JobListQuery) {
  return queryOptions({
    queryKey: [...JOB_LISTS_KEY, query],
    queryFn: () => listJobs(query),
    refetchInterval: JOB_LIST_POLL_MS,
  });
}
