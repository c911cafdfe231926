// GET /api/v1/reports/review - the budget review as JSON: headline, clusters, rows, charts
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getReview } from "@/lib/data/review-page";
import { reviewQuerySchema } from "@/lib/validation/review";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request) => {
  await requireApiCaller(request);
  const query = reviewQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return NextResponse.json(await getReview(query));
});
