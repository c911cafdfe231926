// GET /api/v1/me - who the caller is and the leaf budgets they may charge (allot squeue --me, submit)
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { listChargeableBudgets } from "@/lib/data/jobs";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  return NextResponse.json({
    id: user.id,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    budgets: await listChargeableBudgets(user.id),
  });
});
