import Link from "next/link";
import type { ReactNode } from "react";
import ReactMarkdown from "react-markdown";
import rehypeSlug from "rehype-slug";
import remarkGfm from "remark-gfm";
import { docHref } from "@/lib/docs/doc-links";
import { ScrollRegion } from "@/components/layout/scroll-region";

/**
 * A repository document rendered for the Help pages: GitHub tables, headings with ids, links
 * to other served documents; links to files the app does not serve stay text. Raw HTML in the
 * Markdown (a generated-file comment) is not rendered.
 */
export function DocMarkdown({ text, file }: { text: string; file: string }) {
  // Each wide table scrolls in a region of its own name (axe: landmark-unique).
  let tables = 0;
  return (
    <article className="card doc">
      <ReactMarkdown
        skipHtml
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSlug]}
        components={{
          a: ({ href, children }) => <DocLink href={href ?? ""} file={file} label={children} />,
          table: ({ children }) => (
            <ScrollRegion label={`Table ${(tables += 1)}`}>
              <table>{children}</table>
            </ScrollRegion>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </article>
  );
}

function DocLink({ href, file, label }: { href: string; file: string; label: ReactNode }) {
  const to = docHref(href, file);
  if (to === null) return <span className="doc-unlinked">{label}</span>;
  if (/^https?:/i.test(to)) {
    return (
      <a href={to} rel="noreferrer">
        {label}
      </a>
    );
  }
  return <Link href={to}>{label}</Link>;
}
