import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { DocMarkdown } from "@/components/docs/doc-markdown";
import { PageHead } from "@/components/layout/page-head";
import { LINKED_DOCS, linkedDocOf } from "@/lib/docs/linked-docs";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { name } = await params;
  const file = linkedDocOf(name);
  return { title: file ? LINKED_DOCS[file] : "Not found" };
}

export default async function DocPage({ params }: Props) {
  const { name } = await params;
  const file = linkedDocOf(name);
  if (!file) notFound();
  if (file !== name) redirect(`/docs/${file}`);
  const title = LINKED_DOCS[file]!;
  const text = await readFile(join(process.cwd(), "docs", file), "utf8");
  return (
    <>
      <PageHead title={title}>
        <p className="muted">
          From <code>docs/{file}</code> in the repository. <Link href="/docs">All help</Link>
        </p>
      </PageHead>
      <DocMarkdown text={text.replace(/^# .*\n+/, "")} file={file} />
    </>
  );
}
