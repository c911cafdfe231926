import type { Metadata } from "next";
import { BudgetWorkspace } from "@/components/budget-tree/budget-workspace";
import { toShareRow, type CompactTree, type Person } from "@/components/budget-tree/tree-model";
import { getSessionUser } from "@/lib/auth";
import { getEditRights } from "@/lib/data/budget-access";
import { countOpenJobsByBudget } from "@/lib/data/budget-jobs";
import { listBudgetUsage } from "@/lib/data/budget-usage";
import { getBudgetTreeFor } from "@/lib/data/budgets";
import { listClusters } from "@/lib/data/clusters";
import { PageHead } from "@/components/layout/page-head";
import { tryPeriodOf } from "@/lib/validation/try-period";

export const metadata: Metadata = { title: "Budgets" };
export const dynamic = "force-dynamic";

export default async function BudgetsPage({
  searchParams,
}: {
  /** node, edit=1, and the review's period (month, from, to, cluster) when it led here. */
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const user = await getSessionUser();
  if (!user) return null; // the (app) layout redirects to sign-in
  const [query, nodes, clusters, rights, openJobs, usage] = await Promise.all([
    searchParams,
    getBudgetTreeFor(user),
    listClusters(),
    getEditRights(user),
    countOpenJobsByBudget(),
    listBudgetUsage(),
  ]);
  const { node: selectedId, edit } = query;
  const people: Person[] = [];
  const personIndex = new Map<string, number>();
  const indexOf = (person: Person) => {
    let index = personIndex.get(person.id);
    if (index === undefined) {
      index = people.push(person) - 1;
      personIndex.set(person.id, index);
    }
    return index;
  };
  const tree: CompactTree = {
    people,
    rows: nodes.map((node) => ({
      ...toShareRow(node),
      version: node.version,
      leads: node.leads.map(indexOf),
      members: node.members.map(indexOf),
      canEdit: rights.editableIds.has(node.id),
      canManageLeads: rights.leadManagedIds.has(node.id),
      ...(node.isLeaf && openJobs.has(node.id) ? { openJobs: openJobs.get(node.id) } : {}),
    })),
  };
  const canEditAny = tree.rows.some((row) => row.canEdit);
  return (
    <>
      <PageHead title="Budgets">
        <p className="muted">
          {canEditAny
            ? "Select a budget to see its people and history. You can change the split of the budgets you lead and of everything below them."
            : "Select a budget to see its people and history. Only leads change a split; ask the lead of a budget above yours."}
        </p>
      </PageHead>
      {tree.rows.length > 0 ? (
        <BudgetWorkspace
          tree={tree}
          clusters={clusters.map(({ name, gpuType, gpus }) => {
            const used = usage.find((entry) => entry.name === name);
            return {
              name,
              gpuType,
              gpus,
              lookbackSec: used?.lookbackSec,
              usedGpuHoursById: used?.usedGpuHoursById,
            };
          })}
          initialSelectedId={
            selectedId && tree.rows.some((row) => row.id === selectedId)
              ? selectedId
              : tree.rows[0]!.id
          }
          // ?edit=1 (the drafts page's "Start a draft"): open the selected budget's editor.
          isEditingAtStart={
            edit === "1" && tree.rows.some((row) => row.id === selectedId && row.canEdit)
          }
          tryPeriod={tryPeriodOf(query)}
        />
      ) : (
        <p className="card">
          No budget tree yet. It gets its root when the first admin (<code>ALLOT_ADMINS</code>)
          signs in; for the demo lab, run <code>npm run db:seed</code>.
        </p>
      )}
    </>
  );
}
