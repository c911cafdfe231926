// GET /api/v1/clusters/[name]/jobs/[externalId] - a job by its executor's id (SLURM's job id), as
// GET /api/v1/jobs/{id} gives it
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { findJobIdByExternalId, getJobView } from "@/lib/data/job-views";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string; externalId: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  await requireApiCaller(request);
  const { name, externalId } = parsePathParams(await params);
  return NextResponse.json({
    job: await getJobView(await findJobIdByExternalId(name, externalId)),
  });
});
