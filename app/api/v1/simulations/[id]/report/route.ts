// GET /api/v1/simulations/{id}/report - the report JSON { baseline, allocation }, as a download
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getSimulationResultText } from "@/lib/data/simulations";
import { AppError } from "@/lib/errors";
import { simulationIdSchema } from "@/lib/validation/simulations";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (request, context: Context) => {
  await requireApiCaller(request);
  const { id } = simulationIdSchema.parse(await context.params);
  const result = await getSimulationResultText(id, "report");
  if (!result) throw new AppError("not_found", `No simulation ${id}.`);
  if (result.text === null) throw new AppError("conflict", "The simulation has not finished.");
  const fileName = `${result.name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}-${id}.json`;
  return new Response(result.text, {
    headers: {
      "Content-Type": "application/json",
      "Content-Disposition": `attachment; filename="${fileName}"`,
    },
  });
});
