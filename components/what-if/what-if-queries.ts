// React Query options of the what-if pages: poll while a run is queued or running.
import { queryOptions } from "@tanstack/react-query";
import type { WhatIfView } from "@/lib/simulations/store/what-ifs";

const POLL_MS = 1000;

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

const isActive = (status: string | undefined) => status === "queued" || status === "running";

export function whatIfQuery(draftId: string, initial: WhatIfView) {
  return queryOptions({
    queryKey: ["what-if", draftId, initial.id],
    queryFn: async () =>
      (await getJson<{ whatIf: WhatIfView }>(`/api/v1/drafts/${draftId}/what-ifs/${initial.id}`))
        .whatIf,
    initialData: initial,
    refetchInterval: (query) => (isActive(query.state.data?.status) ? POLL_MS : false),
  });
}

export function whatIfListQuery(draftId: string, initial: WhatIfView[]) {
  return queryOptions({
    queryKey: ["what-ifs", draftId],
    queryFn: async () =>
      (await getJson<{ whatIfs: WhatIfView[] }>(`/api/v1/drafts/${draftId}/what-ifs`)).whatIfs,
    initialData: initial,
    refetchInterval: (query) =>
      query.state.data?.some((run) => isActive(run.status)) ? POLL_MS * 2 : false,
  });
}
