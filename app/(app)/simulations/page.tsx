import type { Metadata } from "next";
import Link from "next/link";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { SimulationList } from "@/components/simulations/simulation-list";
import { PHILLY_CITATION } from "@/components/simulations/sim-labels";
import { listSimulations } from "@/lib/simulations/store/simulations";
import { simulationListQuery } from "@/lib/queries/simulations";
import { ClockNote } from "@/components/layout/clock-note";
import { PageHead } from "@/components/layout/page-head";

export const metadata: Metadata = { title: "Simulations" };
export const dynamic = "force-dynamic";

export default async function SimulationsPage() {
  const simulations = await listSimulations();
  return (
    <>
      <PageHead
        title="Simulations"
        actions={
          <Link className="button button-primary" href="/simulations/new">
            New simulation
          </Link>
        }
      >
        <p className="muted">
          Replay a workload under the old priority scheduler and under budgets, side by side.
          Baseline → allocation in each column.
        </p>
        <ClockNote clock="real" />
      </PageHead>
      <section className="card" aria-label="Past simulations">
        <PrefetchedQueries seeds={[seedQuery(simulationListQuery(), simulations)]}>
          <SimulationList />
        </PrefetchedQueries>
      </section>
      {simulations.some((simulation) => simulation.source === "philly") ? (
        <p className="citation">Philly trace results: {PHILLY_CITATION} (CC-BY-4.0).</p>
      ) : null}
    </>
  );
}
