import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Connecting an executor" };
export const dynamic = "force-dynamic";

/**
 * docs/executor.md as the repository has it (Markdown is readable as text), so the tokens page
 * links to the guide of the version that is running.
 */
export default async function ExecutorDocsPage() {
  const text = await readFile(join(process.cwd(), "docs", "executor.md"), "utf8");
  return (
    <>
      <div className="page-head">
        <h1>Connecting an executor</h1>
        <p className="muted">
          From <code>docs/executor.md</code> in the repository.
        </p>
      </div>
      <pre className="card" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {text.replace(/^# .*\n+/, "")}
      </pre>
    </>
  );
}
