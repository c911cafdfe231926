// React Query options for the simulation pages, shared by every component that reads them.
import { queryOptions } from "@tanstack/react-query";
import type { SimulationListItem, SimulationView } from "@/lib/simulations/store/simulations";
import type { SimulationTimelines } from "@/lib/simulations/timeline-format";

const POLL_MS = 1000;
// Once the replays are done (the worker writes "building the reports" at 0.92) the results are
// seconds away: polling faster then shows them sooner, for a few more requests.
const POLL_FINISHING_MS = 250;
const FINISHING_PROGRESS = 0.9;

async function fetchOk(url: string, accept: string): Promise<Response> {
  const response = await fetch(url, { headers: { accept } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as {
      error?: { message?: string };
    } | null;
    throw new Error(body?.error?.message ?? `${url} answered ${response.status}`);
  }
  return response;
}

async function getJson<T>(url: string): Promise<T> {
  return (await (await fetchOk(url, "application/json")).json()) as T;
}

/**
 * Stored gzip JSON as stored (lib/api/gzip-json.ts), unzipped here: the server neither unzips nor
 * compresses it again. A timeline stored by an older worker as several gzip members, which
 * DecompressionStream refuses, is asked for again as JSON.
 */
async function getGzipJson<T>(url: string): Promise<T> {
  const response = await fetchOk(url, "application/gzip, application/json;q=0.9");
  if (response.headers.get("content-type") !== "application/gzip" || !response.body) {
    return (await response.json()) as T;
  }
  try {
    return (await new Response(
      response.body.pipeThrough(new DecompressionStream("gzip")),
    ).json()) as T;
  } catch {
    return getJson<T>(url);
  }
}

function isActive(status: string | undefined): boolean {
  return status === "queued" || status === "running";
}

export function simulationQuery(id: string, initial?: SimulationView) {
  return queryOptions({
    queryKey: ["simulation", id],
    queryFn: async () =>
      (await getJson<{ simulation: SimulationView }>(`/api/v1/simulations/${id}`)).simulation,
    ...(initial ? { initialData: initial } : {}),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!isActive(data?.status)) return false;
      return (data?.progress ?? 0) >= FINISHING_PROGRESS ? POLL_FINISHING_MS : POLL_MS;
    },
  });
}

export function simulationListQuery(initial?: SimulationListItem[]) {
  return queryOptions({
    queryKey: ["simulations"],
    queryFn: async () =>
      (await getJson<{ simulations: SimulationListItem[] }>("/api/v1/simulations")).simulations,
    ...(initial ? { initialData: initial } : {}),
    refetchInterval: (query) =>
      query.state.data?.some((simulation) => isActive(simulation.status)) ? POLL_MS * 2 : false,
  });
}

export function timelineQuery(id: string) {
  return queryOptions({
    queryKey: ["simulation", id, "timeline"],
    queryFn: () => getGzipJson<SimulationTimelines>(`/api/v1/simulations/${id}/timeline`),
    staleTime: Infinity,
  });
}
