import "server-only";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";

/** A drafts page's data: the 404 page for an unknown id, the refusal to show for a non-editor. */
export async function readForEditor<T>(read: Promise<T>): Promise<T | AppError> {
  return read.catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    if (error instanceof AppError && error.code === "forbidden") return error;
    throw error;
  });
}
