import type { Metadata } from "next";
import Link from "next/link";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { WhatIfResult } from "@/components/what-if/what-if-result";
import { getSessionUser } from "@/lib/auth";
import { getWhatIfForEditor } from "@/lib/simulations/store/what-ifs";
import { AppError } from "@/lib/errors";
import { whatIfQuery } from "@/lib/queries/what-ifs";
import { pageParam } from "../../../../../../path-param";
import { readForEditor } from "../../../read-for-editor";
import { PageHead } from "@/components/layout/page-head";

export const metadata: Metadata = { title: "What-if" };
export const dynamic = "force-dynamic";

export default async function WhatIfPage({
  params,
}: {
  params: Promise<{ nodeId: string; draftId: string; runId: string }>;
}) {
  const user = await getSessionUser();
  if (!user) return null;
  const { nodeId, draftId, runId } = await params;
  pageParam(nodeId);
  const run = await readForEditor(getWhatIfForEditor(user, pageParam(draftId), pageParam(runId)));
  if (run instanceof AppError) {
    return (
      <p className="alert" role="alert">
        {run.message}
      </p>
    );
  }
  const draftHref = `/budgets/${encodeURIComponent(nodeId)}/drafts/${encodeURIComponent(draftId)}`;
  return (
    <>
      <PageHead
        title={<>What-if: {run.name}</>}
        trail={
          <p className="muted small">
            <Link href={`/budgets/${encodeURIComponent(nodeId)}/drafts`}>Drafts</Link> /{" "}
            <Link href={draftHref}>The draft</Link> /
          </p>
        }
      >
        <p className="muted">
          Started by {run.userName}. The result is kept with the draft.{" "}
          <Link href={draftHref}>Back to the draft to adopt it</Link>
        </p>
      </PageHead>
      <PrefetchedQueries seeds={[seedQuery(whatIfQuery(run.draftId, run.id), run)]}>
        <WhatIfResult draftId={run.draftId} runId={run.id} />
      </PrefetchedQueries>
    </>
  );
}
