"use client";

import Link from "next/link";
import { useQueryClient } from "@tanstack/react-query";
import { useActionState, useState } from "react";
import type { NodeHealthState } from "@/app/(app)/clusters/[cluster]/nodes/actions";
import { ConfirmDialog } from "@/components/confirm/confirm-dialog";
import { liveTimeFormatter } from "@/lib/format";
import { clusterNodesQuery } from "@/lib/queries/clusters";
import { drainConsequence, type DrainRun } from "@/lib/sentences/consequences";
import { DRAIN_REASON_MESSAGE } from "@/lib/validation/oversight";

export type HealthAction = (state: NodeHealthState, form: FormData) => Promise<NodeHealthState>;

type Props = {
  cluster: string;
  node: number;
  health: string;
  runs: DrainRun[];
  nowSec: number;
  healthAction: HealthAction;
};

function RunList({ runs, time }: { runs: DrainRun[]; time: (sec: number) => string }) {
  return (
    <ul>
      {runs.map((run) => (
        <li key={run.jobId}>
          <Link href={`/jobs/${encodeURIComponent(run.jobId)}`}>{run.jobName}</Link> ({run.gpus}{" "}
          GPUs here, protected until {time(run.protectedUntilSec)})
        </li>
      ))}
    </ul>
  );
}

/** What draining or downing the node does to the runs on it. */
function Consequence({
  health,
  runs,
  nowSec,
}: {
  health: "draining" | "down";
  runs: DrainRun[];
  nowSec: number;
}) {
  const time = liveTimeFormatter(nowSec);
  if (health === "down") {
    return (
      <p>
        {runs.length === 0
          ? "No run is on it; it takes no new runs until it is marked healthy."
          : `All ${runs.length} runs on it end at once, protected or not; resumable jobs go back to the queue.`}
      </p>
    );
  }
  const { preemptedNow, protectedRuns, summary } = drainConsequence(runs, nowSec, time);
  return (
    <>
      <p>{summary}</p>
      {preemptedNow.length > 0 ? (
        <>
          <p>Preempted at once (their protected period has ended):</p>
          <RunList runs={preemptedNow} time={time} />
        </>
      ) : null}
      {protectedRuns.length > 0 ? (
        <>
          <p>Protected, preempted when their protected period ends:</p>
          <RunList runs={protectedRuns} time={time} />
        </>
      ) : null}
    </>
  );
}

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

/**
 * The health buttons of one node. Draining and marking down ask first, saying what happens to
 * the runs on it; a drain needs a reason. Both are kept in the node's history.
 */
export function NodeHealthForm({ cluster, node, health, runs, nowSec, healthAction }: Props) {
  const queryClient = useQueryClient();
  // A change shows at once: the page's query is asked again (docs/decisions/094).
  async function changeHealth(previous: NodeHealthState, form: FormData) {
    const result = await healthAction(previous, form);
    if (result?.ok) await queryClient.invalidateQueries(clusterNodesQuery(cluster));
    return result;
  }
  const [state, action, isPending] = useActionState(changeHealth, null);
  const [asking, setAsking] = useState<"draining" | "down" | null>(null);
  const isRefused = state?.ok === false;
  const message = state?.ok === false ? state.error.message : (state?.data.note ?? null);

  async function confirm(reason: string): Promise<string | null> {
    if (!asking) return null;
    const fields = { cluster, node: String(node), health: asking, reason };
    const result = await changeHealth(null, formOf(fields));
    if (result?.ok === false) return result.error.fieldErrors.reason ?? result.error.message;
    setAsking(null);
    return null;
  }

  return (
    <>
      <form action={action} className="inline-form">
        <input type="hidden" name="cluster" value={cluster} />
        <input type="hidden" name="node" value={node} />
        {health !== "draining" ? (
          <button
            type="button"
            className="button button-small"
            disabled={isPending}
            aria-label={`Drain node ${node}`}
            aria-haspopup="dialog"
            onClick={() => setAsking("draining")}
          >
            Drain
          </button>
        ) : null}
        {health !== "down" ? (
          <button
            type="button"
            className="button button-small"
            disabled={isPending}
            aria-label={`Mark down node ${node}`}
            aria-haspopup="dialog"
            onClick={() => setAsking("down")}
          >
            Mark down
          </button>
        ) : null}
        {health !== "healthy" ? (
          <button
            className="button button-small"
            type="submit"
            name="health"
            value="healthy"
            disabled={isPending}
            aria-label={`Mark healthy node ${node}`}
          >
            Mark healthy
          </button>
        ) : null}
        {message ? (
          <span
            role={isRefused ? "alert" : "status"}
            className={isRefused ? "field-error" : "field-hint"}
          >
            {message}
          </span>
        ) : null}
      </form>
      <ConfirmDialog
        isOpen={asking !== null}
        title={asking === "down" ? `Mark node ${node} down?` : `Drain node ${node}?`}
        confirmLabel={asking === "down" ? `Mark node ${node} down` : `Drain node ${node}`}
        reason={{
          label: "Reason, kept in the node's history",
          isRequired: asking === "draining",
          requiredMessage: DRAIN_REASON_MESSAGE,
        }}
        onConfirm={confirm}
        onClose={() => setAsking(null)}
      >
        {asking ? <Consequence health={asking} runs={runs} nowSec={nowSec} /> : null}
      </ConfirmDialog>
    </>
  );
}
