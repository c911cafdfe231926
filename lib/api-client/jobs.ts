// The browser's calls to the jobs routes.
import type { JobListPage } from "@/lib/data/job-list";
import type { JobView } from "@/lib/data/job-views";
import type { JobListQuery } from "@/lib/validation/job-list";
import { callApi, getJson } from "./request";

export function submitJob(body: Record<string, unknown>) {
  return callApi<{ job: { id: string } }>("POST", "/api/v1/jobs", body);
}

export function cancelJob(jobId: string, reason: string) {
  return callApi<unknown>(
    "POST",
    `/api/v1/jobs/${encodeURIComponent(jobId)}/cancel`,
    reason ? { reason } : {},
  );
}

export async function getJob(jobId: string): Promise<JobView> {
  return (await getJson<{ job: JobView }>(`/api/v1/jobs/${encodeURIComponent(jobId)}`)).job;
}

/** A page of the jobs the caller sees, every field of the query sent as it is. */
export function listJobs(query: JobListQuery): Promise<JobListPage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  return getJson<JobListPage>(`/api/v1/jobs?${params.toString()}`);
}
