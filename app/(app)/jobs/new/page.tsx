import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SubmitJobForm } from "@/components/jobs/submit-job-form";
import { getSessionUser } from "@/lib/auth";
import { listClusters } from "@/lib/data/clusters";
import { listChargeableBudgets } from "@/lib/data/jobs";
import { PageHead } from "@/components/layout/page-head";

export const metadata: Metadata = { title: "Submit a job" };

type Props = { searchParams: Promise<{ cluster?: string }> };

export default async function NewJobPage({ searchParams }: Props) {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  const [allClusters, budgets, query] = await Promise.all([
    listClusters(),
    listChargeableBudgets(user.id),
    searchParams,
  ]);
  // SLURM clusters take jobs from sbatch only (the bridge mirrors them).
  const clusters = allClusters.filter((cluster) => cluster.executor !== "slurm");
  const slurmClusters = allClusters.filter((cluster) => cluster.executor === "slurm");
  const initial = clusters.find((c) => c.name === query.cluster)?.name ?? clusters[0]?.name ?? "";
  return (
    <>
      <PageHead title="Submit a job">
        <p className="muted">
          The scheduler ranks it by its budget&apos;s recent use; <Link href="/jobs">Jobs</Link>{" "}
          shows its place and why it waits.
        </p>
        {slurmClusters.length > 0 ? (
          <p className="muted">
            {slurmClusters.map((cluster) => cluster.name).join(", ")}{" "}
            {slurmClusters.length === 1 ? "is" : "are"} run by SLURM: submit there with{" "}
            <code>sbatch -A &lt;your budget&apos;s account&gt;</code>.
          </p>
        ) : null}
      </PageHead>
      <section className="card">
        {budgets.length === 0 ? (
          <p>You are not a member of any budget yet; ask your project lead to add you.</p>
        ) : (
          <SubmitJobForm
            clusters={clusters.map(({ name, gpuType, gpus, nodeSizeGpus, maxMinRuntimeSec }) => ({
              name,
              gpuType,
              gpus,
              nodeSizeGpus,
              maxMinRuntimeSec,
            }))}
            budgets={budgets}
            initialCluster={initial}
          />
        )}
      </section>
    </>
  );
}
