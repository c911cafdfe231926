// GET /api/v1/tokens - the caller's own personal tokens (admins too see only their own)
// POST /api/v1/tokens - create a personal token of the caller; the token is in the answer once
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { issuePersonalToken, listPersonalTokens } from "@/lib/data/personal-tokens";
import { createPersonalTokenSchema } from "@/lib/validation/tokens";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  return NextResponse.json({ tokens: await listPersonalTokens(user.id) });
});

export const POST = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  const input = createPersonalTokenSchema.parse(await readJson(request));
  const { token, view } = await issuePersonalToken(user.id, input);
  return NextResponse.json({ token, ...view }, { status: 201 });
});
