// GET /api/v1/jobs/[id] - a job with its runs and its newest 500 decisions, each with its sentence
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getJobView } from "@/lib/data/job-views";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  await requireApiCaller(request);
  const { id } = parsePathParams(await params);
  return NextResponse.json({ job: await getJobView(id) });
});
