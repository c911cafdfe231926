import type { Metadata } from "next";
import { BudgetTreeTable, type TreeRow } from "@/components/budget-tree/budget-tree-table";
import { toShareRow } from "@/components/budget-tree/tree-model";
import { ClusterTable } from "@/components/clusters/cluster-table";
import { getBudgetTree } from "@/lib/data/budgets";
import { listClusters } from "@/lib/data/clusters";
import { weeklyGpuHours } from "@/lib/engine/budget-tree";
import { formatBudgetCounts, formatInteger } from "@/lib/format";
import { PageHead } from "@/components/layout/page-head";
import { Card } from "@/components/layout/card";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const [nodes, clusters] = await Promise.all([getBudgetTree(), listClusters()]);
  const rows: TreeRow[] = nodes.map((node) => ({
    ...toShareRow(node),
    leads: node.leads.map((lead) => lead.name),
    memberCount: node.members.length,
    gpuHoursPerWeek: Object.fromEntries(
      clusters.map((cluster) => [cluster.name, weeklyGpuHours(node.effectiveShare, cluster.gpus)]),
    ),
  }));
  const totalGpus = clusters.reduce((sum, cluster) => sum + cluster.gpus, 0);
  const leafCount = nodes.filter((node) => node.isLeaf).length;
  return (
    <>
      <PageHead title="Overview">
        <p className="muted">
          {formatInteger(clusters.length)} clusters, {formatInteger(totalGpus)} GPUs,{" "}
          {formatBudgetCounts(leafCount, nodes.length)}.
        </p>
      </PageHead>
      <Card title="Clusters" headingId="clusters-heading">
        <ClusterTable clusters={clusters} />
      </Card>
      <Card title="Budget tree" headingId="tree-heading">
        <p className="muted">
          Each budget&apos;s effective share is the product of its fractions from the root down: the
          part of every cluster it is owed, shown in GPU-hours per week.
        </p>
        {rows.length > 0 ? (
          <BudgetTreeTable rows={rows} clusters={clusters} />
        ) : (
          <p>
            No budget tree yet. Run <code>npm run db:seed</code> for the demo lab.
          </p>
        )}
      </Card>
    </>
  );
}
