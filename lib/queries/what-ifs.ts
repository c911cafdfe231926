// React Query options of the what-if pages: the server seeds them (components/providers/
// prefetched-queries.tsx), the browser polls them while a run is queued or running.
import { queryOptions } from "@tanstack/react-query";
import { getWhatIf, listWhatIfs } from "@/lib/api-client/budgets";
import { isRunActive, RUN_POLL_MS } from "./run-status";

export function whatIfQuery(draftId: string, runId: string) {
  return queryOptions({
    queryKey: ["what-if", draftId, runId],
    queryFn: () => getWhatIf(draftId, runId),
    refetchInterval: (query) => (isRunActive(query.state.data?.status) ? RUN_POLL_MS : false),
  });
}

export function whatIfListQuery(draftId: string) {
  return queryOptions({
    queryKey: ["what-ifs", draftId],
    queryFn: () => listWhatIfs(draftId),
    refetchInterval: (query) =>
      query.state.data?.some((run) => isRunActive(run.status)) ? RUN_POLL_MS * 2 : false,
  });
}
