// GET /api/v1/clusters/[name]/queue - the live ranked queue with a reason for every job
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getClusterQueueJson } from "@/lib/data/queue";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  await requireApiCaller(request);
  const { name } = parsePathParams(await params);
  return new NextResponse(await getClusterQueueJson(name), {
    headers: { "content-type": "application/json" },
  });
});
