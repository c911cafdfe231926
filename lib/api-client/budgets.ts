// The browser's calls to the budgets, drafts and what-if routes (the same ones scripts use).
import type { DraftListItem } from "@/lib/data/budget-drafts";
import type { WhatIfView } from "@/lib/simulations/store/what-ifs";
import { callApi, getJson, type ApiError } from "./request";

export type ChildrenState = {
  nodeId: string;
  name: string;
  version: number;
  children: { id: string; name: string; weight: number }[];
  lastChange: { by: string | null; at: string; reason: string } | null;
};

type SplitBody = {
  version: number;
  reason: string;
  children: { id?: string; name: string; weight: number }[];
};

const nodePath = (nodeId: string) => `/api/v1/budgets/${encodeURIComponent(nodeId)}`;
const draftPath = (draftId: string) => `/api/v1/drafts/${encodeURIComponent(draftId)}`;

export function saveChildren(nodeId: string, body: SplitBody) {
  return callApi<ChildrenState & { changed: boolean; warnings: string[] }>(
    "PUT",
    `${nodePath(nodeId)}/children`,
    body,
  );
}

export function changePerson(
  nodeId: string,
  role: "leads" | "members",
  email: string,
  isAdding: boolean,
) {
  return callApi<{ changed: boolean; people: { id: string; name: string; email: string }[] }>(
    isAdding ? "POST" : "DELETE",
    `${nodePath(nodeId)}/${role}`,
    { email },
  );
}

/** The current state sent with a 409 for a stale version, when that is what it is. */
export function staleState(error: ApiError): ChildrenState | null {
  const details = error.details as ({ kind?: string } & ChildrenState) | undefined;
  return error.status === 409 && details?.kind === "stale-version" ? details : null;
}

export function saveDraft(nodeId: string, body: SplitBody) {
  return callApi<{ draft: DraftListItem }>("POST", `${nodePath(nodeId)}/drafts`, body);
}

export function discardDraft(draftId: string) {
  // A write signed by cookie is JSON, body or not (lib/guards/request-guard.ts).
  return callApi<{ discarded: { id: string; nodeId: string } }>("DELETE", draftPath(draftId), {});
}

export function adoptDraft(draftId: string, reason: string) {
  return callApi<{ version: number; changeId: string }>("POST", `${draftPath(draftId)}/adopt`, {
    reason,
  });
}

export function startWhatIf(
  draftId: string,
  body: { from?: string; to?: string; clusters?: string[]; hasControl?: boolean },
) {
  return callApi<{ whatIf: WhatIfView }>("POST", `${draftPath(draftId)}/what-ifs`, body);
}

export async function getWhatIf(draftId: string, runId: string): Promise<WhatIfView> {
  const path = `${draftPath(draftId)}/what-ifs/${encodeURIComponent(runId)}`;
  return (await getJson<{ whatIf: WhatIfView }>(path)).whatIf;
}

export async function listWhatIfs(draftId: string): Promise<WhatIfView[]> {
  return (await getJson<{ whatIfs: WhatIfView[] }>(`${draftPath(draftId)}/what-ifs`)).whatIfs;
}
