"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card } from "@/components/layout/card";
import { DataTable, type Column } from "@/components/layout/data-table";
import { ClockNote } from "@/components/layout/clock-note";
import { PageHead } from "@/components/layout/page-head";
import type { NodeHistoryEntry, NodeView } from "@/lib/data/nodes";
import { liveTimeFormatter } from "@/lib/format";
import { actorPhrase, healthChangeSentence, stateAgePhrase } from "@/lib/sentences/history";
import { clusterNodesQuery } from "@/lib/queries/clusters";
import { NodeHealthForm, type HealthAction } from "./node-health-form";

/** Entries of the nodes' history shown on the page (the newest). */
const HISTORY_SHOWN = 30;

type Clock = (sec: number) => string;

function historySentence(entry: NodeHistoryEntry, clock: Clock): string {
  if (entry.kind === "drained") {
    return `Node ${entry.node} emptied at ${clock(entry.atSec)}: its drain finished, ready for maintenance.`;
  }
  return healthChangeSentence({ ...entry, at: clock(entry.atSec) });
}

/** The health cell: the state, who set it and why, and for a draining node when it is empty. */
function HealthCell({ node, clock }: { node: NodeView; clock: Clock }) {
  const className =
    node.health === "healthy"
      ? "health-ok"
      : node.health === "draining"
        ? "health-warn"
        : "health-bad";
  const change = node.lastChange;
  return (
    <>
      <span className={className}>{node.health}</span>
      {change ? (
        <span className="muted small">
          {" "}
          · set {actorPhrase(change.actor)} at {clock(change.atSec)}
          {change.reason ? `: ${change.reason}` : ""}
        </span>
      ) : null}
      {node.drainedSec !== null ? (
        <div>empty since {clock(node.drainedSec)}, ready for maintenance</div>
      ) : null}
      {node.emptyBySec !== null ? (
        <div>
          empty by ~{clock(node.emptyBySec)} (when its last protected run ends):{" "}
          {node.runs.map((run, index) => (
            <span key={run.runId}>
              {index > 0 ? ", " : ""}
              <Link href={`/jobs/${encodeURIComponent(run.jobId)}`}>{run.jobName}</Link>
            </span>
          ))}
        </div>
      ) : null}
    </>
  );
}

/**
 * A cluster's nodes page: each node's health and runs, the nodes' history and the drains that
 * finished by themselves, polled (seeded by the server). Admins get the health buttons.
 */
export function ClusterNodesView({
  cluster,
  isAdmin,
  healthAction,
}: {
  cluster: string;
  isAdmin: boolean;
  healthAction: HealthAction;
}) {
  const { data } = useQuery(clusterNodesQuery(cluster));
  if (!data) return <p>Loading…</p>;
  const { nodes, drains, history, nowSec } = data;
  const clock = liveTimeFormatter(nowSec);
  const unhealthy = nodes.filter((node) => node.health !== "healthy");
  const columns: Column<NodeView>[] = [
    { header: "Node", isRowHeader: true, isNumeric: true, cell: (node) => node.index },
    { header: "Health", cell: (node) => <HealthCell node={node} clock={clock} /> },
    { header: "GPUs used", isNumeric: true, cell: (node) => `${node.usedGpus} / ${node.gpus}` },
    { header: "Runs", isNumeric: true, cell: (node) => node.runs.length },
    { header: "In this state for", cell: (node) => stateAgePhrase(node, nowSec) },
  ];
  if (isAdmin) {
    columns.push({
      header: "Change",
      cell: (node) => (
        <NodeHealthForm
          cluster={cluster}
          node={node.index}
          health={node.health}
          runs={node.runs}
          nowSec={nowSec}
          healthAction={healthAction}
        />
      ),
    });
  }
  return (
    <>
      <PageHead
        title={<>{cluster} nodes</>}
        actions={
          <p>
            <Link href={`/clusters/${cluster}`}>Queue</Link>
            {isAdmin ? (
              <>
                {" · "}
                <Link href={`/clusters/${cluster}/tokens`}>Executor tokens</Link>
              </>
            ) : null}
          </p>
        }
      >
        <p className="muted">
          A draining node takes no new runs; each run on it is preempted once its protected period
          ends. When it is empty it is ready for maintenance. Every change of a node&apos;s health
          is kept below with who made it and why.
        </p>
        <ClockNote />
      </PageHead>
      <Card
        title={`Nodes (${nodes.length}, ${unhealthy.length} not healthy)`}
        headingId="nodes-heading"
      >
        <DataTable label="Nodes" columns={columns} rows={nodes} rowKey={(node) => node.index} />
      </Card>
      <Card title="Node history" headingId="history-heading">
        {history.length === 0 ? (
          <p>No node has changed health yet.</p>
        ) : (
          <ol className="decision-list">
            {history.slice(0, HISTORY_SHOWN).map((entry) => (
              <li key={`${entry.kind}-${entry.node}-${entry.atSec}`}>
                {historySentence(entry, clock)}
              </li>
            ))}
          </ol>
        )}
      </Card>
      <Card title="Drains finished without a human" headingId="drains-heading">
        <p className="muted small">
          Drains an executor or the demo executor started, that emptied by themselves. Drains
          started by a person are in the node history above.
        </p>
        {drains.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <ul className="decision-list">
            {drains.map((drain) => (
              <li key={`${drain.node}-${drain.atSec}`}>
                Node {drain.node} emptied at {clock(drain.atSec)}
                {drain.startedBy
                  ? `, drained ${actorPhrase(drain.startedBy.actor)} at ${clock(drain.startedBy.atSec)}.`
                  : " (who started the drain was not recorded)."}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
