import type { Metadata } from "next";
import Link from "next/link";
import { PageHead } from "@/components/layout/page-head";
import { listDecisions } from "@/lib/docs/decisions";
import { LINKED_DOCS } from "@/lib/docs/linked-docs";

export const metadata: Metadata = { title: "Help" };

export const dynamic = "force-dynamic";

/** The Help page: the repository's documents the app serves, each a link, then its decisions. */
export default async function HelpPage() {
  const decisions = await listDecisions();
  return (
    <>
      <PageHead title="Help">
        <p className="muted">
          How Allot ranks budgets, protects jobs and counts GPU-hours, and how to run it: the
          documents of the running version.
        </p>
      </PageHead>
      <ul className="card">
        {Object.entries(LINKED_DOCS).map(([file, title]) => (
          <li key={file}>
            <Link href={`/docs/${file}`}>{title}</Link>
          </li>
        ))}
      </ul>
      <section className="card" aria-labelledby="decisions-title">
        <h2 id="decisions-title">Decision records</h2>
        <p className="muted">Why the product is built as it is, one choice each.</p>
        <ul>
          {decisions.map(({ file, title }) => (
            <li key={file}>
              <Link href={`/docs/decisions/${file}`}>{title}</Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
