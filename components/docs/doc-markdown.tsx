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
  return (
    <article className="card doc">
      <ReactMarkdown
        skipHtml
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSlug]}
        components={{
          a: ({ href, children }) => <DocLink href={href ?? ""} file={file} label={children} />,
          table: ({ node, children }) => (
            <ScrollRegion label={tableLabel(node)}>
              <table aria-label={tableLabel(node)}>{children}</table>
            </ScrollRegion>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </article>
  );
}

type HastNode = { type: string; tagName?: string; value?: string; children?: HastNode[] };

/**
 * A wide table scrolls in a region named by its first columns and its line, so that every
 * region of a page has a name of its own (axe: landmark-unique).
 */
function tableLabel(node: (HastNode & { position?: { start: { line: number } } }) | undefined) {
  const text = (n: HastNode): string => n.value ?? (n.children ?? []).map(text).join("");
  const headers: string[] = [];
  const visit = (n: HastNode) => {
    if (n.tagName === "th") headers.push(text(n).trim());
    else (n.children ?? []).forEach(visit);
  };
  if (node) visit(node);
  return `Table of ${headers.slice(0, 3).join(", ") || "figures"} (line ${node?.position?.start.line ?? "?"})`;
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
