// GET /api/v1/drafts/[id]/what-ifs/[runId] - one what-if: progress while it runs, then the side-by-side result
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getWhatIfForEditor } from "@/lib/simulations/store/what-ifs";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string; runId: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { id, runId } = parsePathParams(await params);
  return NextResponse.json({ whatIf: await getWhatIfForEditor(user, id, runId) });
});
