// GET /api/v1/clusters - every cluster's GPUs: busy (allocated / unallocated), idle, pending
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { listClusterLoads } from "@/lib/data/queue";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request) => {
  await requireApiCaller(request);
  return NextResponse.json({ clusters: await listClusterLoads() });
});
