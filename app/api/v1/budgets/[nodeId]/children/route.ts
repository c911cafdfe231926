// PUT /api/v1/budgets/[nodeId]/children - set the children's weights and names, add and remove children
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { setChildren } from "@/lib/data/budget-edits";
import { setChildrenSchema } from "@/lib/validation/budgets";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nodeId: string }> };

export const PUT = apiRoute(async (request, { params }: Context) => {
  const user = await requireApiCaller(request);
  const { nodeId } = parsePathParams(await params);
  const input = setChildrenSchema.parse(await readJson(request));
  return NextResponse.json(await setChildren(user, nodeId, input));
});
