// What-if runs: simulations of kind "what-if", each linked to the draft it replays.
import "server-only";
import { getDb } from "./db/app-db";
import type { WhatIfOptions, WhatIfSummary } from "../simulations/what-if/summary";
import { SIMULATION_VIEW, toSimulationView, type SimulationView } from "./simulations";

/** A what-if as pages and the API show it. */
export type WhatIfView = Omit<SimulationView, "summary" | "options" | "source"> & {
  draftId: string;
  options: WhatIfOptions;
  summary: WhatIfSummary | null;
};

const VIEW = { ...SIMULATION_VIEW, draftId: true } as const;

function toWhatIfView(
  row: Parameters<typeof toSimulationView>[0] & { draftId: string | null },
  nowMs: number,
): WhatIfView {
  const { summary, options, source: _source, ...view } = toSimulationView(row, nowMs);
  return {
    ...view,
    draftId: row.draftId ?? "",
    options: options as unknown as WhatIfOptions,
    summary: summary as unknown as WhatIfSummary | null,
  };
}

/** A draft's what-ifs, newest first. */
export async function listWhatIfs(draftId: string): Promise<WhatIfView[]> {
  const rows = await getDb().simulation.findMany({
    where: { draftId, kind: "what-if" },
    orderBy: { createdAt: "desc" },
    select: VIEW,
  });
  const nowMs = Date.now();
  return rows.map((row) => toWhatIfView(row, nowMs));
}

/** One what-if of a draft, or null. Callers check the viewer may see the draft. */
export async function findWhatIf(draftId: string, id: string): Promise<WhatIfView | null> {
  const row = await getDb().simulation.findFirst({
    where: { id, draftId, kind: "what-if" },
    select: VIEW,
  });
  return row ? toWhatIfView(row, Date.now()) : null;
}

/** Queues a what-if of a draft; returns its id. */
export async function insertWhatIf(input: {
  userId: string;
  draftId: string;
  name: string;
  options: WhatIfOptions;
}): Promise<string> {
  const row = await getDb().simulation.create({
    data: {
      kind: "what-if",
      source: "what-if",
      userId: input.userId,
      draftId: input.draftId,
      name: input.name,
      options: input.options,
    },
    select: { id: true },
  });
  return row.id;
}
