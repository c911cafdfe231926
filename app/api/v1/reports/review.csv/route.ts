// GET /api/v1/reports/review.csv - the budget review's table as CSV (docs/fulfilment.md)
import { apiRoute } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { getReview, reviewFileName } from "@/lib/data/review-page";
import { reviewCsv } from "@/lib/reports/review-csv";
import { reviewQuerySchema } from "@/lib/validation/review";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (request) => {
  await requireApiCaller(request);
  const query = reviewQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const review = await getReview(query);
  return new Response(reviewCsv(review.rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${reviewFileName(review, "csv")}"`,
    },
  });
});
