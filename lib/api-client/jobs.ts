// The browser's calls to the jobs routes.
import type { JobView } from "@/lib/data/job-views";
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
