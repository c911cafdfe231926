import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { JobDetail } from "@/components/jobs/job-detail";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { getSessionUser } from "@/lib/auth";
import { getJobView, type JobView } from "@/lib/data/job-views";
import { AppError } from "@/lib/errors";
import { jobQuery } from "@/lib/queries/jobs";
import { pageParam } from "../../path-param";

type Props = { params: Promise<{ jobId: string }> };

export const metadata: Metadata = { title: "Job" };

async function loadJob(jobId: string): Promise<JobView> {
  try {
    return await getJobView(jobId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export default async function JobPage({ params }: Props) {
  const [job, user] = await Promise.all([
    loadJob(pageParam((await params).jobId)),
    getSessionUser(),
  ]);
  return (
    <PrefetchedQueries seeds={[seedQuery(jobQuery(job.id), job)]}>
      <JobDetail
        jobId={job.id}
        viewer={{ id: user?.id ?? null, isAdmin: user?.isAdmin === true }}
      />
    </PrefetchedQueries>
  );
}
