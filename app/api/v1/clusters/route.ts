// GET /api/v1/clusters - every cluster's GPUs: busy (allocated / unallocated), idle, pending
// POST /api/v1/clusters - register a SLURM cluster or update its nodes (admins; docs/slurm.md)
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { registerCluster } from "@/lib/data/cluster-registration";
import { listClusterLoads } from "@/lib/data/queue";
import { AppError } from "@/lib/errors";
import { registerClusterSchema } from "@/lib/validation/clusters";

export const dynamic = "force-dynamic";

/** Up to 10,000 nodes, each with a hostname of up to 200 characters. */
const MAX_REGISTRATION_BYTES = 4 * 1024 * 1024;

export const GET = apiRoute(async (request) => {
  await requireApiCaller(request);
  return NextResponse.json({ clusters: await listClusterLoads() });
});

export const POST = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  if (!user.isAdmin) throw new AppError("forbidden", "Only admins may register clusters.");
  const input = registerClusterSchema.parse(
    await readJson(request, { maxBytes: MAX_REGISTRATION_BYTES }),
  );
  const registered = await registerCluster(input, user.id);
  return NextResponse.json(registered, { status: registered.isNew ? 201 : 200 });
});
