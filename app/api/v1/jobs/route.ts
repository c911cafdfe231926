// POST /api/v1/jobs - submit a job; GET /api/v1/jobs - the jobs the caller sees, filtered, paged
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { listJobs } from "@/lib/data/job-list";
import { getJobView } from "@/lib/data/job-views";
import { submitJob } from "@/lib/data/jobs";
import { firstValues, jobListQuerySchema, withDefaults } from "@/lib/validation/job-list";
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
  const query = jobListQuerySchema.parse(firstValues(new URL(request.url).searchParams));
  return NextResponse.json(await listJobs(user, withDefaults(query)));
});
