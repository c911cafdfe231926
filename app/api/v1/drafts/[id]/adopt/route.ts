// POST /api/v1/drafts/[id]/adopt - save the draft's split through the normal edit (history), mark it adopted
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { adoptDraft } from "@/lib/data/budget-drafts";
import { parsePathParams } from "@/lib/validation/params";
import { adoptDraftSchema } from "@/lib/validation/what-if";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const POST = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { id } = parsePathParams(await params);
  const { reason } = adoptDraftSchema.parse(await readJson(request));
  return NextResponse.json(await adoptDraft(user, id, reason));
});
