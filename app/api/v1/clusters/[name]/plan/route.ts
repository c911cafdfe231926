// GET /api/v1/clusters/[name]/plan - what the executor should start and preempt, with reasons
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireExecutor } from "@/lib/auth";
import { getPlan } from "@/lib/data/executor";
import { idParamSchema } from "@/lib/validation/jobs";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  const name = idParamSchema.parse((await params).name);
  await requireExecutor(request, name);
  return NextResponse.json(await getPlan(name));
});
