// GET /api/v1/health - liveness, database reachability and whether this replica leads
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { pingDatabase } from "@/lib/data/clusters";
import { isThisReplicaLeader } from "@/lib/leader/leader-handle";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => {
  const isDatabaseUp = await pingDatabase();
  return NextResponse.json(
    {
      status: isDatabaseUp ? "ok" : "degraded",
      database: isDatabaseUp ? "ok" : "unreachable",
      replica: isThisReplicaLeader() ? "leader" : "follower",
    },
    // A 503 says when to ask again, as every other 503 of the API does.
    isDatabaseUp ? { status: 200 } : { status: 503, headers: { "Retry-After": "30" } },
  );
});
