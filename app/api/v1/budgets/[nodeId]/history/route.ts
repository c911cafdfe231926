// GET /api/v1/budgets/[nodeId]/history - the node's changes (who, when, why, before/after) and weights
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getNodeHistory } from "@/lib/data/budget-history";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nodeId: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { nodeId } = parsePathParams(await params);
  return NextResponse.json(await getNodeHistory(nodeId, user));
});
