// GET /docs/[name] - one of the repository's documents for people using the app, as plain text
// (the pages link them; docs/ is served by the checkout the server runs from)
import { readFile } from "node:fs/promises";
import path from "node:path";
import { apiRoute } from "@/lib/api/respond";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** The documents the pages link, and only those: never a path a caller makes up. */
const LINKED_DOCS = new Set(["simulations.md", "fulfilment.md", "ranking.md", "api.md"]);

type Context = { params: Promise<{ name: string }> };

export const GET = apiRoute(
  async (_request, { params }: Context) => {
    const { name } = await params;
    if (!LINKED_DOCS.has(name)) throw new AppError("not_found", `No document is named "${name}".`);
    const text = await readFile(path.join(process.cwd(), "docs", name), "utf8");
    return new Response(text, {
      headers: {
        // Plain text: a browser shows Markdown as it is instead of downloading it.
        "Content-Type": "text/plain; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
      },
    });
  },
  { route: "/docs/:name" },
);
