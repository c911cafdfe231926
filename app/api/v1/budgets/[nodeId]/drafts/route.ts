// POST /api/v1/budgets/[nodeId]/drafts - keep a proposed split of the node's children (not in force)
// GET /api/v1/budgets/[nodeId]/drafts - the node's drafts, for people who may edit it
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { createDraft, listDrafts } from "@/lib/data/budget-drafts";
import { parsePathParams } from "@/lib/validation/params";
import { createDraftSchema } from "@/lib/validation/what-if";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nodeId: string }> };

export const POST = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { nodeId } = parsePathParams(await params);
  const input = createDraftSchema.parse(await readJson(request));
  const draft = await createDraft(user, nodeId, input);
  return NextResponse.json(
    { draft },
    { status: 201, headers: { Location: `/api/v1/drafts/${draft.id}` } },
  );
});

export const GET = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { nodeId } = parsePathParams(await params);
  return NextResponse.json(await listDrafts(user, nodeId));
});
