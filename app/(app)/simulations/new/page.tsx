import type { Metadata } from "next";
import { NewSimulationForm } from "@/components/simulations/new-simulation-form";

export const metadata: Metadata = { title: "New simulation" };

export default function NewSimulationPage() {
  return (
    <>
      <div className="page-head">
        <h1>New simulation</h1>
        <p className="muted">
          Both schedulers run on the same input in a background worker; the page follows its
          progress, so you can leave and come back.
        </p>
      </div>
      <NewSimulationForm />
    </>
  );
}
