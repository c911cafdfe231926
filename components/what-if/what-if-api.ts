// The browser's calls to the drafts and what-if routes (the same ones scripts use).
import { callApi as call } from "@/components/budget-tree/budget-api";
import type { DraftListItem } from "@/lib/data/budget-drafts";
import type { WhatIfView } from "@/lib/simulations/store/what-ifs";

export function saveDraft(
  nodeId: string,
  body: {
    version: number;
    reason: string;
    children: { id?: string; name: string; weight: number }[];
  },
) {
  return call<{ draft: DraftListItem }>(
    "POST",
    `/api/v1/budgets/${encodeURIComponent(nodeId)}/drafts`,
    body,
  );
}

export function startWhatIf(
  draftId: string,
  body: { from?: string; to?: string; clusters?: string[]; hasControl?: boolean },
) {
  return call<{ whatIf: WhatIfView }>(
    "POST",
    `/api/v1/drafts/${encodeURIComponent(draftId)}/what-ifs`,
    body,
  );
}

export function adoptDraft(draftId: string, reason: string) {
  return call<{ version: number; changeId: string }>(
    "POST",
    `/api/v1/drafts/${encodeURIComponent(draftId)}/adopt`,
    { reason },
  );
}

/** Where a what-if's page is. */
export function whatIfHref(nodeId: string, draftId: string, runId: string): string {
  return `/budgets/${encodeURIComponent(nodeId)}/drafts/${encodeURIComponent(draftId)}/what-ifs/${encodeURIComponent(runId)}`;
}
