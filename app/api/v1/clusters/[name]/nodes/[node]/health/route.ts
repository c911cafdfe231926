// POST /api/v1/clusters/[name]/nodes/[node]/health - an admin drains, downs or restores a node
// (by the executor's name for it, else by index), with a reason
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { setNodeHealthFor } from "@/lib/data/node-health";
import { nodeHealthSchema, parseNodeRef } from "@/lib/validation/oversight";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string; node: string }> };

export const POST = apiRoute(async (request, { params }: Context) => {
  const { name, node } = parsePathParams(await params);
  const ref = parseNodeRef(node);
  const user = await requireApiCaller(request);
  const input = nodeHealthSchema.parse(await readJson(request));
  return NextResponse.json(await setNodeHealthFor(user, name, ref, input));
});
