import type { Metadata } from "next";
import { redirect } from "next/navigation";
import {
  CreatePersonalTokenForm,
  RevokePersonalTokenForm,
} from "@/components/tokens/personal-token-forms";
import { getSessionUser } from "@/lib/auth";
import {
  listOthersLiveTokens,
  listPersonalTokens,
  type OwnedTokenView,
  type PersonalTokenView,
} from "@/lib/data/personal-tokens";
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

/** Columns both tables show, of any personal token. */
const STARTS_WITH: Column<PersonalTokenView> = {
  header: "Starts with",
  cell: (token) => <code>{token.prefix}…</code>,
};
const LAST_USED: Column<PersonalTokenView> = {
  header: "Last used",
  cell: (token) => orNever(token.lastUsedAt),
};
const EXPIRES: Column<PersonalTokenView> = {
  header: "Expires",
  cell: (token) => orNever(token.expiresAt),
};

function tokenColumns(now: Date): Column<PersonalTokenView>[] {
  return [
    { header: "Name", isRowHeader: true, cell: (token) => token.name },
    STARTS_WITH,
    { header: "Created", cell: (token) => formatDateTime(token.createdAt) },
    LAST_USED,
    EXPIRES,
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

/** For admins: others' tokens in force, by owner, each with its Revoke. */
function othersColumns(): Column<OwnedTokenView>[] {
  return [
    {
      header: "Person",
      isRowHeader: true,
      cell: (token) => `${token.owner.name} (${token.owner.email})`,
    },
    { header: "Name", cell: (token) => token.name },
    STARTS_WITH,
    LAST_USED,
    EXPIRES,
    {
      header: "Status",
      cell: (token) => (
        <RevokePersonalTokenForm
          tokenId={token.id}
          tokenName={`${token.name} of ${token.owner.name}`}
          revokeAction={revokePersonalTokenAction}
        />
      ),
    },
  ];
}

export default async function TokensPage() {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  const [tokens, others] = await Promise.all([
    listPersonalTokens(user.id),
    user.isAdmin ? listOthersLiveTokens(user.id) : Promise.resolve(null),
  ]);
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
      {others ? (
        <Card title="Everyone else's tokens in force" headingId="others-tokens-heading">
          <p className="muted">
            You are an admin: revoke a person&apos;s tokens when they leave, as single sign-on stops
            only their sign-in.
          </p>
          {others.length === 0 ? (
            <p>None.</p>
          ) : (
            <DataTable
              label="Everyone else's tokens in force"
              columns={othersColumns()}
              rows={others}
              rowKey={(token) => token.id}
            />
          )}
        </Card>
      ) : null}
    </>
  );
}
