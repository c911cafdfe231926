import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ClockNote } from "@/components/layout/clock-note";
import { CreateTokenForm, RevokeTokenForm } from "@/components/nodes/token-panel";
import { getSessionUser } from "@/lib/auth";
import { listClusterTokens } from "@/lib/data/tokens";
import { formatDateTime } from "@/lib/format";
import { pageParam } from "../../../path-param";
import { createTokenAction, revokeTokenAction } from "./actions";

type Props = { params: Promise<{ cluster: string }> };

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `${(await params).cluster} executor tokens` };
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
      <div className="page-head section-head">
        <div>
          <h1>{cluster} executor tokens</h1>
          <p className="muted">
            An executor (a SLURM or Kubernetes bridge, or a script) uses a cluster token to post
            events to and read the plan of this cluster only. How to connect one:{" "}
            <Link href="/docs/executor.md">Connecting an executor</Link>.
          </p>
          <ClockNote />
        </div>
        <p>
          <Link href={`/clusters/${cluster}/nodes`}>Nodes</Link>
          {" · "}
          <Link href={`/clusters/${cluster}`}>Queue</Link>
        </p>
      </div>
      <section className="card" aria-labelledby="new-token-heading">
        <h2 id="new-token-heading">Create a token</h2>
        <CreateTokenForm cluster={cluster} createAction={createTokenAction} />
      </section>
      <section className="card" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Tokens of {cluster}</h2>
        {tokens.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Starts with</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id}>
                    <th scope="row" className="tree-row-head">
                      {token.name}
                    </th>
                    <td>
                      <code>{token.prefix}…</code>
                    </td>
                    <td>{formatDateTime(token.createdAt)}</td>
                    <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "never"}</td>
                    <td>
                      {token.revokedAt ? (
                        "revoked"
                      ) : (
                        <RevokeTokenForm
                          cluster={cluster}
                          tokenId={token.id}
                          tokenName={token.name}
                          revokeAction={revokeTokenAction}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
