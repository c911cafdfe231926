// React Query options of the simulation pages: the server seeds them (components/providers/
// prefetched-queries.tsx), the browser polls them while a simulation is queued or running.
import { queryOptions } from "@tanstack/react-query";
import {
  getSimulation,
  getSimulationTimelines,
  listSimulations,
} from "@/lib/api-client/simulations";
import { isRunActive, RUN_POLL_MS } from "./run-status";

// Once the replays are done (the worker writes "building the reports" at 0.92) the results are
// seconds away: polling faster then shows them sooner, for a few more requests.
const POLL_FINISHING_MS = 250;
const FINISHING_PROGRESS = 0.9;

export function simulationQuery(id: string) {
  return queryOptions({
    queryKey: ["simulation", id],
    queryFn: () => getSimulation(id),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!isRunActive(data?.status)) return false;
      return (data?.progress ?? 0) >= FINISHING_PROGRESS ? POLL_FINISHING_MS : RUN_POLL_MS;
    },
  });
}

export function simulationListQuery() {
  return queryOptions({
    queryKey: ["simulations"],
    queryFn: listSimulations,
    refetchInterval: (query) =>
      query.state.data?.some((simulation) => isRunActive(simulation.status))
        ? RUN_POLL_MS * 2
        : false,
  });
}

export function timelineQuery(id: string) {
  return queryOptions({
    queryKey: ["simulation", id, "timeline"],
    queryFn: () => getSimulationTimelines(id),
    staleTime: Infinity,
  });
}
