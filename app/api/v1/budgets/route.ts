// GET /api/v1/budgets - the tree with weights, fractions, effective shares, leads, versions
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getBudgetTreeFor } from "@/lib/data/budgets";
import { listClusters } from "@/lib/data/clusters";
import { weeklyGpuHours } from "@/lib/engine/budget-tree";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  const [nodes, clusters] = await Promise.all([getBudgetTreeFor(user), listClusters()]);
  return NextResponse.json({
    rootId: nodes[0]?.id ?? null,
    clusters: clusters.map(({ name, gpuType, gpus }) => ({ name, gpuType, gpus })),
    nodes: nodes.map((node) => ({
      ...node,
      gpuHoursPerWeek: Object.fromEntries(
        clusters.map((cluster) => [
          cluster.name,
          weeklyGpuHours(node.effectiveShare, cluster.gpus),
        ]),
      ),
    })),
  });
});
