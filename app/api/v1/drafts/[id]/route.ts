// GET /api/v1/drafts/[id] - a draft, the split in force now, and its what-ifs
// DELETE /api/v1/drafts/[id] - discard a draft that was not adopted, with its what-ifs
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { discardDraft, getDraftWithWhatIfs } from "@/lib/simulations/store/what-ifs";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { id } = parsePathParams(await params);
  return NextResponse.json({ draft: await getDraftWithWhatIfs(user, id) });
});

export const DELETE = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { id } = parsePathParams(await params);
  return NextResponse.json({ discarded: await discardDraft(user, id) });
});
