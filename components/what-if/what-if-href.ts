/** Where a what-if's page is. */
export function whatIfHref(nodeId: string, draftId: string, runId: string): string {
  return `/budgets/${encodeURIComponent(nodeId)}/drafts/${encodeURIComponent(draftId)}/what-ifs/${encodeURIComponent(runId)}`;
}
