// GET /api/v1/health - liveness and database reachability
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { pingDatabase } from "@/lib/data/clusters";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => {
  const isDatabaseUp = await pingDatabase();
  return NextResponse.json(
    { status: isDatabaseUp ? "ok" : "degraded", database: isDatabaseUp ? "ok" : "unreachable" },
    { status: isDatabaseUp ? 200 : 503 },
  );
});
