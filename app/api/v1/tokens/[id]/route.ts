// DELETE /api/v1/tokens/[id] - revoke one of the caller's own personal tokens, or (admins)
// anyone's (idempotent)
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { revokePersonalToken } from "@/lib/data/personal-tokens";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const DELETE = apiRoute(async (request, { params }: Context) => {
  const { id } = parsePathParams(await params);
  const user = await requireApiCaller(request);
  return NextResponse.json(await revokePersonalToken(user, id));
});
