// GET /api/v1/openapi.json - the API's OpenAPI 3.1 description (docs/api.md), public
import { NextResponse } from "next/server";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { apiRoute } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = apiRoute(async () => {
  cached ??= buildOpenApiDocument(process.env.NEXTAUTH_URL);
  return NextResponse.json(cached);
});
