// GET /api/v1/clusters/[name]/accounts - the budget tree as SLURM accounts, for sync-accounts
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireExecutor } from "@/lib/auth";
import { getSlurmAccounts } from "@/lib/data/slurm-accounts";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

export const GET = apiRoute(async (request, { params }: Context) => {
  const { name } = parsePathParams(await params);
  await requireExecutor(request, name);
  return NextResponse.json(await getSlurmAccounts(name));
});
