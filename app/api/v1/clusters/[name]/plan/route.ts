// GET /api/v1/clusters/[name]/plan - what the executor should start and preempt, with reasons
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireExecutor } from "@/lib/auth";
import { getPlan } from "@/lib/data/executor";
import { parseExecutorKind } from "@/lib/validation/executor";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  const { name } = parsePathParams(await params);
  await requireExecutor(request, name);
  return NextResponse.json(await getPlan(name, { callerKind: parseExecutorKind(request.headers) }));
});
