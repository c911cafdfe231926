// The browser's calls to the simulations routes.
import type { SimulationListItem, SimulationView } from "@/lib/simulations/store/simulations";
import type { SimulationTimelines } from "@/lib/simulations/timeline-format";
import { callApi, getGzipJson, getJson } from "./request";

const simulationPath = (id: string) => `/api/v1/simulations/${encodeURIComponent(id)}`;

export function startSimulation(body: Record<string, unknown>) {
  return callApi<{ simulation: { id: string } }>("POST", "/api/v1/simulations", body);
}

export async function getSimulation(id: string): Promise<SimulationView> {
  return (await getJson<{ simulation: SimulationView }>(simulationPath(id))).simulation;
}

export async function listSimulations(): Promise<SimulationListItem[]> {
  return (await getJson<{ simulations: SimulationListItem[] }>("/api/v1/simulations")).simulations;
}

export function getSimulationTimelines(id: string): Promise<SimulationTimelines> {
  return getGzipJson<SimulationTimelines>(`${simulationPath(id)}/timeline`);
}
