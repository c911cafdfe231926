import type { Metadata } from "next";
import Link from "next/link";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { AdoptDraft } from "@/components/what-if/adopt-draft";
import { DiscardDraft } from "@/components/what-if/discard-draft";
import { DraftByline } from "@/components/what-if/draft-byline";
import { DraftSplit } from "@/components/what-if/draft-split";
import { WhatIfForm } from "@/components/what-if/what-if-form";
import { WhatIfList } from "@/components/what-if/what-if-list";
import { getSessionUser } from "@/lib/auth";
import { getDraftWithWhatIfs } from "@/lib/simulations/store/what-ifs";
import { listClusters } from "@/lib/data/clusters";
import { AppError } from "@/lib/errors";
import { pageParam } from "../../../../path-param";
import { readForEditor } from "../read-for-editor";
import { getDefaultReviewPeriod } from "@/lib/data/review-page";
import { formatDate } from "@/lib/format";
import { tryPeriodOf } from "@/lib/validation/try-period";
import { whatIfListQuery } from "@/lib/queries/what-ifs";
import { PageHead } from "@/components/layout/page-head";
import { Card } from "@/components/layout/card";

export const metadata: Metadata = { title: "Draft split" };
export const dynamic = "force-dynamic";

export default async function DraftPage({
  params,
  searchParams,
}: {
  params: Promise<{ nodeId: string; draftId: string }>;
  /** The review's period (month, or from and to; cluster) when a review led here. */
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const user = await getSessionUser();
  if (!user) return null;
  const draftId = pageParam((await params).draftId);
  const draft = await readForEditor(getDraftWithWhatIfs(user, draftId));
  if (draft instanceof AppError) {
    return (
      <p className="alert" role="alert">
        {draft.message}
      </p>
    );
  }
  const [clusters, period, query] = await Promise.all([
    listClusters(),
    getDefaultReviewPeriod(),
    searchParams,
  ]);
  // The review's period the lead came from, else the review's default one.
  const tried = tryPeriodOf(query);
  const names = clusters.map((cluster) => cluster.name);
  const nodeHref = `/budgets/${encodeURIComponent(draft.nodeId)}`;
  return (
    <>
      <PageHead
        title={<>Draft split of {draft.nodeName}</>}
        trail={
          <p className="muted small">
            <Link href={`/budgets?node=${encodeURIComponent(draft.nodeId)}`}>Budgets</Link> /{" "}
            <Link href={`${nodeHref}/drafts`}>Drafts of {draft.nodeName}</Link> /
          </p>
        }
      >
        <DraftByline draft={draft} />
      </PageHead>
      <Card title="Proposed split" headingId="split-heading">
        {draft.adoption ? (
          <DraftSplit proposed={draft.adoption.after} current={draft.adoption.before} isAdopted />
        ) : (
          <DraftSplit proposed={draft.children} current={draft.currentChildren} />
        )}
        <AdoptDraft
          draftId={draft.id}
          nodeId={draft.nodeId}
          nodeName={draft.nodeName}
          proposed={draft.children}
          adoptedAt={draft.adoptedAt}
          isStale={draft.isStale}
          basedOnVersion={draft.basedOnVersion}
          currentVersion={draft.currentVersion}
          currentChildren={draft.currentChildren}
        />
        {draft.adoptedAt ? null : (
          <div className="editor-actions">
            <DiscardDraft
              draftId={draft.id}
              nodeId={draft.nodeId}
              whatIfCount={draft.whatIfs.length}
            />
          </div>
        )}
      </Card>
      <Card title="What if this split had been in force?" headingId="what-if-heading">
        <p className="muted">
          Replays the period&apos;s actual demand (every job submitted in it, and work still waiting
          or running at its start) on the simulator under this draft, side by side with what
          happened; if you ask, also under the split in force now, as a control that separates the
          split&apos;s effect from the simulator&apos;s own differences from the live system.
        </p>
        <WhatIfForm
          draftId={draft.id}
          nodeId={draft.nodeId}
          clusters={names}
          defaultFrom={formatDate(tried?.from ?? period.fromSec)}
          defaultTo={formatDate(tried?.to ?? period.toSec)}
          defaultClusters={tried?.clusters?.filter((name) => names.includes(name)) ?? names}
        />
        <PrefetchedQueries seeds={[seedQuery(whatIfListQuery(draft.id), draft.whatIfs)]}>
          <WhatIfList nodeId={draft.nodeId} draftId={draft.id} />
        </PrefetchedQueries>
      </Card>
    </>
  );
}
