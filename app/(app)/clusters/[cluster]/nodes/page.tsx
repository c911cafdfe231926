import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/layout/auto-refresh";
import { NodeHealthForm } from "@/components/nodes/node-health-form";
import { CreateTokenForm, RevokeTokenForm } from "@/components/nodes/token-panel";
import { getSessionUser } from "@/lib/auth";
import { listClusterNodes } from "@/lib/data/nodes";
import { listClusterTokens } from "@/lib/data/tokens";
import { AppError } from "@/lib/errors";
import { formatSpan, liveTimeFormatter } from "@/lib/format";
import { pageParam } from "../../../path-param";
import { createTokenAction, revokeTokenAction, setNodeHealthAction } from "./actions";
import { ClockNote } from "@/components/layout/clock-note";

type Props = { params: Promise<{ cluster: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `${(await params).cluster} nodes` };
}

async function load(cluster: string) {
  try {
    return await listClusterNodes(cluster);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export default async function NodesPage({ params }: Props) {
  const cluster = pageParam((await params).cluster);
  const [{ nodes, drains, nowSec }, user] = await Promise.all([load(cluster), getSessionUser()]);
  const isAdmin = user?.isAdmin === true;
  const tokens = isAdmin ? await listClusterTokens(cluster) : [];
  const clock = liveTimeFormatter(nowSec);
  const unhealthy = nodes.filter((node) => node.health !== "healthy");
  return (
    <>
      <AutoRefresh seconds={5} />
      <div className="page-head section-head">
        <div>
          <h1>{cluster} nodes</h1>
          <p className="muted">
            A draining node takes no new runs; each run on it is preempted once its protected period
            ends. When it is empty it is ready for maintenance, without a human.
          </p>
          <ClockNote />
        </div>
        <Link href={`/clusters/${cluster}`}>Queue</Link>
      </div>
      <section className="card" aria-labelledby="drains-heading">
        <h2 id="drains-heading">Drains finished without a human</h2>
        {drains.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <ul className="decision-list">
            {drains.map((drain) => (
              <li key={`${drain.node}-${drain.atSec}`}>{drain.sentence}</li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="nodes-heading">
        <h2 id="nodes-heading">
          Nodes ({nodes.length}, {unhealthy.length} not healthy)
        </h2>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Node
                </th>
                <th scope="col">Health</th>
                <th scope="col" className="num">
                  GPUs used
                </th>
                <th scope="col" className="num">
                  Runs
                </th>
                <th scope="col">In this state for</th>
                {isAdmin ? <th scope="col">Change</th> : null}
              </tr>
            </thead>
            <tbody>
              {nodes.map((node) => (
                <tr key={node.index}>
                  <th scope="row" className="tree-row-head num">
                    {node.index}
                  </th>
                  <td>
                    <span
                      className={
                        node.health === "healthy"
                          ? "health-ok"
                          : node.health === "draining"
                            ? "health-warn"
                            : "health-bad"
                      }
                    >
                      {node.health}
                    </span>
                    {node.health === "draining" && node.drainedSec !== null
                      ? ` · drained at ${clock(node.drainedSec)}, ready for maintenance`
                      : ""}
                  </td>
                  <td className="num">
                    {node.usedGpus} / {node.gpus}
                  </td>
                  <td className="num">{node.runs}</td>
                  <td>{formatSpan(nowSec - node.healthChangedSec)}</td>
                  {isAdmin ? (
                    <td>
                      <NodeHealthForm
                        cluster={cluster}
                        node={node.index}
                        health={node.health}
                        healthAction={setNodeHealthAction}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {isAdmin ? (
        <section className="card" aria-labelledby="tokens-heading">
          <h2 id="tokens-heading">Executor tokens</h2>
          <p className="muted">
            An executor (SLURM or Kubernetes bridge, or a script) uses a cluster token to post
            events and read the plan of this cluster only. See docs/executor.md.
          </p>
          <CreateTokenForm cluster={cluster} createAction={createTokenAction} />
          {tokens.length > 0 ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Starts with</th>
                  <th scope="col">Created</th>
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
                    <td>{token.createdAt.slice(0, 16).replace("T", " ")} UTC</td>
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
          ) : null}
        </section>
      ) : null}
    </>
  );
}
