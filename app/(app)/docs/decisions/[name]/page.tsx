import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DocMarkdown } from "@/components/docs/doc-markdown";
import { PageHead } from "@/components/layout/page-head";
import { readDecision } from "@/lib/docs/decisions";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const decision = await readDecision((await params).name);
  return { title: decision ? decision.title : "Not found" };
}

/** One decision record of docs/decisions, by its file name. */
export default async function DecisionPage({ params }: Props) {
  const decision = await readDecision((await params).name);
  if (!decision) notFound();
  return (
    <>
      <PageHead title={decision.title}>
        <p className="muted">
          Decision record <code>docs/decisions/{decision.file}</code>.{" "}
          <Link href="/docs">All help</Link>
        </p>
      </PageHead>
      <DocMarkdown text={decision.body} file={`decisions/${decision.file}`} />
    </>
  );
}
