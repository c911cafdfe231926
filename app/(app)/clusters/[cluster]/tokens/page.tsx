import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ClockNote } from "@/components/layout/clock-note";
import { DataTable, type Column } from "@/components/layout/data-table";
import { CreateTokenForm, RevokeTokenForm } from "@/components/nodes/token-panel";
import { getSessionUser } from "@/lib/auth";
import { listClusterTokens, type TokenView } from "@/lib/data/tokens";
import { formatDateTime } from "@/lib/format";
import { pageParam } from "../../../path-param";
import { createTokenAction, revokeTokenAction } from "./actions";
import { PageHead } from "@/components/layout/page-head";
import { Card } from "@/components/layout/card";

type Props = { params: Promise<{ cluster: string }> };

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `${(await params).cluster} executor tokens` };
}

function tokenColumns(cluster: string): Column<TokenView>[] {
  return [
    { header: "Name", isRowHeader: true, cell: (token) => token.name },
    { header: "Starts with", cell: (token) => <code>{token.prefix}…</code> },
    { header: "Created", cell: (token) => formatDateTime(token.createdAt) },
    {
      header: "Last used",
      cell: (token) => (token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "never"),
    },
    {
      header: "Status",
      cell: (token) =>
        token.revokedAt ? (
          "revoked"
        ) : (
          <RevokeTokenForm
            cluster={cluster}
            tokenId={token.id}
            tokenName={token.name}
            revokeAction={revokeTokenAction}
          />
        ),
    },
  ];
}

/** A cluster's executor tokens (admins): create one and copy it, see when each was last used. */
export default async function ExecutorTokensPage({ params }: Props) {
  const cluster = pageParam((await params).cluster);
  const user = await getSessionUser();
  if (!user?.isAdmin) {
    return (
      <p className="alert" role="alert">
        Only admins manage executor tokens.
      </p>
    );
  }
  const tokens = await listClusterTokens(cluster).catch(() => null);
  if (tokens === null) notFound();
  return (
    <>
      <PageHead
        title={<>{cluster} executor tokens</>}
        actions={
          <p>
            <Link href={`/clusters/${cluster}/nodes`}>Nodes</Link>
            {" · "}
            <Link href={`/clusters/${cluster}`}>Queue</Link>
          </p>
        }
      >
        <p className="muted">
          An executor (Allot&apos;s SLURM bridge, or one a site writes, for Kubernetes or as a
          script) uses a cluster token to post events to and read the plan of this cluster only. How
          to connect one: <Link href="/docs/executor.md">Connecting an executor</Link>.
        </p>
        <ClockNote clock="real" />
      </PageHead>
      <Card title="Create a token" headingId="new-token-heading">
        <CreateTokenForm cluster={cluster} createAction={createTokenAction} />
      </Card>
      <Card title={<>Tokens of {cluster}</>} headingId="tokens-heading">
        {tokens.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <DataTable
            label={`Tokens of ${cluster}`}
            columns={tokenColumns(cluster)}
            rows={tokens}
            rowKey={(token) => token.id}
          />
        )}
      </Card>
    </>
  );
}
