import type { Metadata } from "next";
import Link from "next/link";
import { PageHead } from "@/components/layout/page-head";
import { LINKED_DOCS } from "@/lib/docs/linked-docs";

export const metadata: Metadata = { title: "Help" };

/** The Help page: the repository's documents the app serves, each a link. */
export default function HelpPage() {
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
    </>
  );
}
