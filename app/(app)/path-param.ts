import "server-only";
import { notFound } from "next/navigation";
import { isPathParam } from "@/lib/validation/params";

/**
 * A page's path parameter, or the 404 page when no resource could have it (empty, too long,
 * control characters): the page counterpart of parsePathParams, before any query uses it.
 */
export function pageParam(value: string): string {
  if (!isPathParam(value)) notFound();
  return value;
}
