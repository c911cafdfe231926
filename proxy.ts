// Answers unknown API paths and wrong methods with the API's JSON error shape
// (never Next's HTML 404 page or an empty 405).
import { NextResponse, type NextRequest } from "next/server";
import { allowedMethods } from "./lib/api/routes";

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const methods = allowedMethods(pathname);
  if (!methods) {
    return NextResponse.json(
      { error: { code: "not_found", message: `No API route at ${pathname}.` } },
      { status: 404 },
    );
  }
  if (request.method !== "OPTIONS" && !methods.includes(request.method)) {
    return NextResponse.json(
      {
        error: {
          code: "method_not_allowed",
          message: `${request.method} is not allowed on ${pathname}; use ${methods.join(", ")}.`,
        },
      },
      { status: 405, headers: { Allow: methods.join(", ") } },
    );
  }
  return NextResponse.next();
}

export const config = { matcher: "/api/v1/:path*" };
