// GET /api/v1/simulations/{id} - status, progress and (when done) the summary of both schedulers
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getSimulation } from "@/lib/simulations/store/simulations";
import { AppError } from "@/lib/errors";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (request, context: Context) => {
  await requireApiCaller(request);
  const { id } = parsePathParams(await context.params);
  const simulation = await getSimulation(id);
  if (!simulation) throw new AppError("not_found", `No simulation ${id}.`);
  return NextResponse.json({ simulation });
});
