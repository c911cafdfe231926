import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PageHead } from "@/components/layout/page-head";

export const dynamic = "force-dynamic";

/**
 * The repository's documents that pages link, by file name, with their titles: only these, never
 * a path a caller makes up. Shown as the running version has them (Markdown reads as text).
 */
const LINKED_DOCS: Record<string, string> = {
  "executor.md": "Connecting an executor",
  "simulations.md": "Simulations: allocation vs baseline",
  "simulator.md": "The simulator's files",
  "fulfilment.md": "Entitled and received GPU-hours",
  "ranking.md": "How budgets are ranked",
  "contract.md": "The scheduling contract",
  "concepts.md": "Concepts",
  "api.md": "The HTTP API",
  "cli.md": "The command line",
};

type Props = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { name } = await params;
  return { title: LINKED_DOCS[name] ?? "Not found" };
}

export default async function DocPage({ params }: Props) {
  const { name } = await params;
  const title = Object.hasOwn(LINKED_DOCS, name) ? LINKED_DOCS[name] : undefined;
  if (!title) notFound();
  const text = await readFile(join(process.cwd(), "docs", name), "utf8");
  return (
    <>
      <PageHead title={title}>
        <p className="muted">
          From <code>docs/{name}</code> in the repository.
        </p>
      </PageHead>
      <pre className="card" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {text.replace(/^# .*\n+/, "")}
      </pre>
    </>
  );
}
