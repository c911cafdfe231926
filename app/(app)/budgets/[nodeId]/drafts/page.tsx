import type { Metadata } from "next";
import Link from "next/link";
import { getSessionUser } from "@/lib/auth";
import { listDrafts } from "@/lib/data/budget-drafts";
import { AppError } from "@/lib/errors";
import { pageParam } from "../../../path-param";
import { readForEditor } from "./read-for-editor";
import { formatDateTime, formatWeight } from "@/lib/format";
import { reviewQueryString } from "@/lib/validation/try-period";
import { PageHead } from "@/components/layout/page-head";
import { Card } from "@/components/layout/card";
import { ScrollRegion } from "@/components/layout/scroll-region";

export const metadata: Metadata = { title: "Drafts" };
export const dynamic = "force-dynamic";

export default async function DraftsPage({
  params,
  searchParams,
}: {
  params: Promise<{ nodeId: string }>;
  /** The review's period when the lead came from the review (month, from, to, cluster). */
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await getSessionUser();
  if (!user) return null;
  const nodeId = pageParam((await params).nodeId);
  const listed = await readForEditor(listDrafts(user, nodeId));
  if (listed instanceof AppError) {
    return (
      <p className="alert" role="alert">
        {listed.message}
      </p>
    );
  }
  const { node, drafts } = listed;
  const review = reviewQueryString(await searchParams);
  const startHref = `/budgets?node=${encodeURIComponent(nodeId)}&edit=1${review ? `&${review}` : ""}`;
  return (
    <>
      <PageHead
        title={<>Drafts of the split of {node.name}</>}
        trail={
          <p>
            <Link href={`/budgets?node=${encodeURIComponent(nodeId)}`}>
              ← Back to the budget tree
            </Link>
          </p>
        }
      >
        <p className="muted">
          A draft is a split that is not in force. Replay a past period&apos;s demand under it (a
          what-if), compare with what happened, then adopt it: it is saved like any edit, with its
          history entry.
        </p>
        <p>
          <Link className="button button-primary" href={startHref}>
            Start a draft
          </Link>{" "}
          <span className="muted small">
            Opens the split editor of {node.name}: change the weights, then Save as draft or Try on
            the review period.
          </span>
        </p>
      </PageHead>
      {drafts.length === 0 ? (
        <p className="card">No drafts yet: start one above.</p>
      ) : (
        <Card title="Drafts" headingId="drafts-heading">
          <ScrollRegion label="Drafts">
            <table>
              <caption className="sr-only">Drafts</caption>
              <thead>
                <tr>
                  <th>Created</th>
                  <th>By</th>
                  <th>Split</th>
                  <th>Why</th>
                  <th className="num">What-ifs</th>
                  <th>State</th>
                </tr>
              </thead>
              <tbody>
                {drafts.map((draft) => (
                  <tr key={draft.id}>
                    <td>
                      <Link href={`/budgets/${encodeURIComponent(nodeId)}/drafts/${draft.id}`}>
                        {formatDateTime(draft.createdAt)}
                      </Link>
                    </td>
                    <td>{draft.authorName}</td>
                    <td>
                      {draft.children
                        .map((child) => `${child.name} ${formatWeight(child.weight)}`)
                        .join(" · ")}
                    </td>
                    <td>{draft.reason}</td>
                    <td className="num">{draft.whatIfCount}</td>
                    <td>
                      {draft.adoptedAt
                        ? `adopted ${draft.adoptedAt.slice(0, 10)}`
                        : draft.basedOnVersion === node.version
                          ? "open"
                          : "outdated: the split changed since"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </Card>
      )}
    </>
  );
}
