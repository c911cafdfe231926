// POST /api/v1/drafts/[id]/what-ifs - replay a period's actual demand under the draft (background)
// GET /api/v1/drafts/[id]/what-ifs - the draft's what-ifs with progress and results
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getDraftWithWhatIfs, getWhatIfForEditor } from "@/lib/simulations/store/what-ifs";
import { startWhatIf } from "@/lib/simulations/start/start-what-if";
import { parsePathParams } from "@/lib/validation/params";
import { startWhatIfSchema } from "@/lib/validation/what-if";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const POST = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { id } = parsePathParams(await params);
  const input = startWhatIfSchema.parse(await readJson(request));
  const runId = await startWhatIf(user, id, input);
  const whatIf = await getWhatIfForEditor(user, id, runId);
  return NextResponse.json(
    { whatIf },
    { status: 202, headers: { Location: `/api/v1/drafts/${id}/what-ifs/${runId}` } },
  );
});

export const GET = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { id } = parsePathParams(await params);
  return NextResponse.json({ whatIfs: (await getDraftWithWhatIfs(user, id)).whatIfs });
});
