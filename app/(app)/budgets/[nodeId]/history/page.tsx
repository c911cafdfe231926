import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ClockNote } from "@/components/layout/clock-note";
import { HistoryList, WeightTimeline } from "@/components/budget-tree/history-list";
import { getSessionUser } from "@/lib/auth";
import { getNodeHistory } from "@/lib/data/budget-history";
import { AppError } from "@/lib/errors";
import { pageParam } from "../../../path-param";
import { PageHead } from "@/components/layout/page-head";
import { Card } from "@/components/layout/card";

export const metadata: Metadata = { title: "Budget history" };
export const dynamic = "force-dynamic";

export default async function BudgetHistoryPage({
  params,
}: {
  params: Promise<{ nodeId: string }>;
}) {
  const nodeId = pageParam((await params).nodeId);
  const user = await getSessionUser();
  if (!user) return null; // the (app) layout redirects to sign-in
  const history = await getNodeHistory(nodeId, user).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  const { node } = history;
  return (
    <>
      <PageHead
        title={<>History of {node.name}</>}
        trail={
          <p>
            <Link href={`/budgets?node=${encodeURIComponent(node.id)}`}>
              ← Back to the budget tree
            </Link>
          </p>
        }
      >
        <p className="muted">
          Every change to this budget&apos;s split and people: who made it, when, why, and the
          values before and after. History cannot be edited or deleted.
          {node.isRemoved ? " This budget has been removed; its history is kept." : null}
        </p>
        <ClockNote clock="real" />
      </PageHead>
      <Card title="Changes" headingId="changes-heading">
        <HistoryList changes={history.changes} />
      </Card>
      <Card title={<>Weight of {node.name} over time</>} headingId="weights-heading">
        <WeightTimeline weights={history.weights} />
      </Card>
    </>
  );
}
