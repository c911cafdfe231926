import type { Metadata } from "next";
import { NewSimulationForm } from "@/components/simulations/new-simulation-form";
import { PageHead } from "@/components/layout/page-head";

export const metadata: Metadata = { title: "New simulation" };

export default function NewSimulationPage() {
  return (
    <>
      <PageHead title="New simulation">
        <p className="muted">
          Both schedulers run on the same input in a background worker; the page follows its
          progress, so you can leave and come back.
        </p>
      </PageHead>
      <NewSimulationForm />
    </>
  );
}
