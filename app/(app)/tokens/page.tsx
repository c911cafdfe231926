import type { Metadata } from "next";
import { redirect } from "next/navigation";
import {
  CreatePersonalTokenForm,
  RevokePersonalTokenForm,
} from "@/components/tokens/personal-token-forms";
import { getSessionUser } from "@/lib/auth";
import { listPersonalTokens, type PersonalTokenView } from "@/lib/data/personal-tokens";
import { createPersonalTokenAction, revokePersonalTokenAction } from "./actions";
import { ScrollRegion } from "@/components/layout/scroll-region";

export const metadata: Metadata = { title: "API tokens" };

function utc(iso: string | null, none: string): string {
  return iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : none;
}

function statusOf(token: PersonalTokenView, now: Date): string | null {
  if (token.revokedAt) return "revoked";
  if (token.expiresAt && new Date(token.expiresAt) <= now) return "expired";
  return null;
}

export default async function TokensPage() {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  const tokens = await listPersonalTokens(user.id);
  const now = new Date();
  return (
    <>
      <div className="page-head">
        <h1>API tokens</h1>
        <p className="muted">
          A personal token lets a script or the <code>allot</code> command line act as you, with
          your rights and no more: send it as <code>Authorization: Bearer &lt;token&gt;</code>. The
          API is described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </p>
      </div>
      <section className="card" aria-labelledby="new-token-heading">
        <h2 id="new-token-heading">Create a token</h2>
        <CreatePersonalTokenForm createAction={createPersonalTokenAction} />
      </section>
      <section className="card" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Your tokens</h2>
        {tokens.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <ScrollRegion label="Your tokens">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Starts with</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => {
                  const status = statusOf(token, now);
                  return (
                    <tr key={token.id}>
                      <th scope="row" className="tree-row-head">
                        {token.name}
                      </th>
                      <td>
                        <code>{token.prefix}…</code>
                      </td>
                      <td>{utc(token.createdAt, "")}</td>
                      <td>{utc(token.lastUsedAt, "never")}</td>
                      <td>{utc(token.expiresAt, "never")}</td>
                      <td>
                        {status ?? (
                          <RevokePersonalTokenForm
                            tokenId={token.id}
                            tokenName={token.name}
                            revokeAction={revokePersonalTokenAction}
                          />
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
    </>
  );
}
