import type { Metadata } from "next";
import { redirect } from "next/navigation";
import {
  CreatePersonalTokenForm,
  RevokePersonalTokenForm,
} from "@/components/tokens/personal-token-forms";
import { getSessionUser } from "@/lib/auth";
import { listPersonalTokens, type PersonalTokenView } from "@/lib/data/personal-tokens";
import { createPersonalTokenAction, revokePersonalTokenAction } from "./actions";
import { DataTable, type Column } from "@/components/layout/data-table";
import { formatDateTime } from "@/lib/format";
import { PageHead } from "@/components/layout/page-head";
import { Card } from "@/components/layout/card";

export const metadata: Metadata = { title: "API tokens" };

const orNever = (iso: string | null) => (iso ? formatDateTime(iso) : "never");

function statusOf(token: PersonalTokenView, now: Date): string | null {
  if (token.revokedAt) return "revoked";
  if (token.expiresAt && new Date(token.expiresAt) <= now) return "expired";
  return null;
}

function tokenColumns(now: Date): Column<PersonalTokenView>[] {
  return [
    { header: "Name", isRowHeader: true, cell: (token) => token.name },
    { header: "Starts with", cell: (token) => <code>{token.prefix}…</code> },
    { header: "Created", cell: (token) => formatDateTime(token.createdAt) },
    { header: "Last used", cell: (token) => orNever(token.lastUsedAt) },
    { header: "Expires", cell: (token) => orNever(token.expiresAt) },
    {
      header: "Status",
      cell: (token) =>
        statusOf(token, now) ?? (
          <RevokePersonalTokenForm
            tokenId={token.id}
            tokenName={token.name}
            revokeAction={revokePersonalTokenAction}
          />
        ),
    },
  ];
}

export default async function TokensPage() {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  const tokens = await listPersonalTokens(user.id);
  return (
    <>
      <PageHead title="API tokens">
        <p className="muted">
          A personal token lets a script or the <code>allot</code> command line act as you, with
          your rights and no more: send it as <code>Authorization: Bearer &lt;token&gt;</code>. The
          API is described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </p>
      </PageHead>
      <Card title="Create a token" headingId="new-token-heading">
        <CreatePersonalTokenForm createAction={createPersonalTokenAction} />
      </Card>
      <Card title="Your tokens" headingId="tokens-heading">
        {tokens.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <DataTable
            label="Your tokens"
            columns={tokenColumns(new Date())}
            rows={tokens}
            rowKey={(token) => token.id}
          />
        )}
      </Card>
    </>
  );
}
