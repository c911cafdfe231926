import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { SimulationDetail } from "@/components/simulations/simulation-detail";
import { SOURCE_LABELS } from "@/components/simulations/sim-labels";
import { getSimulation } from "@/lib/simulations/store/simulations";
import { simulationQuery } from "@/lib/queries/simulations";
import { describeOptions } from "@/lib/simulations/scenario-options";
import { pageParam } from "../../path-param";
import { PageHead } from "@/components/layout/page-head";

export const metadata: Metadata = { title: "Simulation" };
export const dynamic = "force-dynamic";

export default async function SimulationPage({ params }: { params: Promise<{ id: string }> }) {
  const simulation = await getSimulation(pageParam((await params).id));
  if (!simulation) notFound();
  return (
    <>
      <PageHead
        title={simulation.name}
        trail={
          <p className="muted small">
            <Link href="/simulations">Simulations</Link> /
          </p>
        }
      >
        <p className="muted">
          {SOURCE_LABELS[simulation.source] ?? simulation.source} ·{" "}
          {describeOptions(simulation.options)} · started by {simulation.userName}
        </p>
      </PageHead>
      <PrefetchedQueries seeds={[seedQuery(simulationQuery(simulation.id), simulation)]}>
        <SimulationDetail id={simulation.id} />
      </PrefetchedQueries>
    </>
  );
}
