// GET /api/v1/clusters/[name]/nodes - every node's health (who set it, why), its runs, the nodes' history
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { listClusterNodes } from "@/lib/data/nodes";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  await requireApiCaller(request);
  const { name } = parsePathParams(await params);
  return NextResponse.json(await listClusterNodes(name));
});
