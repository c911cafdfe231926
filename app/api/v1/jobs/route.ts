// POST /api/v1/jobs - submit a job; GET /api/v1/jobs - the caller's jobs across clusters
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getJobView, listJobsOfUser } from "@/lib/data/job-views";
import { submitJob } from "@/lib/data/jobs";
import { submitJobSchema } from "@/lib/validation/jobs";

export const dynamic = "force-dynamic";

export const POST = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  const input = submitJobSchema.omit({ workSec: true }).parse(await readJson(request));
  const jobId = await submitJob(user, input);
  return NextResponse.json({ job: await getJobView(jobId) }, { status: 201 });
});

export const GET = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  return NextResponse.json({ jobs: await listJobsOfUser(user.id) });
});
