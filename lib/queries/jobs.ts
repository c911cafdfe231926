// React Query options of a job's page: polled while the job is pending or running.
import { queryOptions } from "@tanstack/react-query";
import { getJob } from "@/lib/api-client/jobs";

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
