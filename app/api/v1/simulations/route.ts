// POST /api/v1/simulations - start a simulation (a built-in scenario or an uploaded file)
// GET /api/v1/simulations - past simulations with their inputs and headline numbers
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getSimulation, listSimulations } from "@/lib/simulations/store/simulations";
import { startSimulation } from "@/lib/simulations/start/start-simulation";
import { createSimulationSchema } from "@/lib/validation/simulations";

export const dynamic = "force-dynamic";

/** An uploaded scenario: the whole Philly trace (109 days) is 24 MB. */
const MAX_SCENARIO_BYTES = 64 * 1024 * 1024;

export const POST = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  const input = createSimulationSchema.parse(
    await readJson(request, { maxBytes: MAX_SCENARIO_BYTES }),
  );
  const id = await startSimulation(user.id, input);
  const simulation = await getSimulation(id);
  return NextResponse.json(
    { simulation },
    { status: 202, headers: { Location: `/api/v1/simulations/${id}` } },
  );
});

export const GET = apiRoute(async (request) => {
  await requireApiCaller(request);
  return NextResponse.json({ simulations: await listSimulations() });
});
