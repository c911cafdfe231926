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
    { status: isDatabaseUp ? 200 : 503 },
  );
});
