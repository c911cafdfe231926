// GET /api/v1/simulations/{id}/timeline - per-GPU run segments of both schedulers (columnar)
import { gzipJsonResponse } from "@/lib/api/gzip-json";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getSimulationResultGz } from "@/lib/simulations/store/simulations";
import { AppError } from "@/lib/errors";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (request, context: Context) => {
  await requireApiCaller(request);
  const { id } = parsePathParams(await context.params);
  const result = await getSimulationResultGz(id, "timeline");
  if (!result) throw new AppError("not_found", `No simulation ${id}.`);
  if (result.gz === null) throw new AppError("conflict", "The simulation has not finished.");
  return gzipJsonResponse(request, result.gz, { "Cache-Control": "private, max-age=3600" });
});
