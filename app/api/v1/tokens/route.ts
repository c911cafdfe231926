// GET /api/v1/tokens - the caller's own personal tokens; ?scope=others (admins): everyone
// else's in force, with their owners
// POST /api/v1/tokens - create a personal token of the signed-in caller (browser session, not a
// token); the token is in the answer once
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller, requireSessionCaller } from "@/lib/auth";
import {
  issuePersonalToken,
  listOthersLiveTokens,
  listPersonalTokens,
} from "@/lib/data/personal-tokens";
import { AppError } from "@/lib/errors";
import { createPersonalTokenSchema, tokenListQuerySchema } from "@/lib/validation/tokens";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request) => {
  const user = await requireApiCaller(request);
  const { scope } = tokenListQuerySchema.parse(
    Object.fromEntries(new URL(request.url).searchParams),
  );
  if (scope === "own") return NextResponse.json({ tokens: await listPersonalTokens(user.id) });
  if (!user.isAdmin) throw new AppError("forbidden", "Only admins list other people's tokens.");
  return NextResponse.json({ tokens: await listOthersLiveTokens(user.id) });
});

export const POST = apiRoute(async (request) => {
  const user = await requireSessionCaller(request);
  const input = createPersonalTokenSchema.parse(await readJson(request));
  const { token, view } = await issuePersonalToken(user.id, input);
  return NextResponse.json({ token, ...view }, { status: 201 });
});
