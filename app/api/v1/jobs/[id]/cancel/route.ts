// POST /api/v1/jobs/[id]/cancel - cancel a pending or running job (owner or admin), with an optional reason
import { NextResponse } from "next/server";
import { apiRoute, readOptionalJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getJobView } from "@/lib/data/job-views";
import { cancelJob } from "@/lib/data/jobs";
import { cancelJobSchema } from "@/lib/validation/oversight";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const POST = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { id } = parsePathParams(await params);
  const { reason } = cancelJobSchema.parse(await readOptionalJson(request));
  await cancelJob(user, id, reason);
  return NextResponse.json({ job: await getJobView(id) });
});
