"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { CancelButton } from "@/components/jobs/cancel-button";
import { labelDecision } from "@/components/jobs/decision-label";
import { Card } from "@/components/layout/card";
import { ClockNote } from "@/components/layout/clock-note";
import { PageHead } from "@/components/layout/page-head";
import { RunTimeline } from "@/components/timeline/run-timeline";
import type { JobView } from "@/lib/data/job-views";
import { formatExactDuration } from "@/lib/engine/request-preview";
import { START_ESTIMATE_CONDITIONS } from "@/lib/engine/start-estimate";
import { formatPercent, liveTimeFormatter } from "@/lib/format";
import type { CancelFacts } from "@/lib/sentences/consequences";
import { cancelSentence } from "@/lib/sentences/history";
import { jobQuery } from "@/lib/queries/jobs";
import { AWAITING_NEXT_PASS } from "@/lib/sentences/awaiting-next-pass";
import "@/components/queue/queue.css";

/** What the cancel confirmation states about the job. */
function cancelFactsOf(job: JobView): CancelFacts {
  const open = job.runs.find((run) => run.endSec === null) ?? null;
  return {
    name: job.name,
    gpus: job.gpus,
    state: job.state,
    runningSinceSec: open?.startSec ?? null,
    protectedUntilSec: open?.protectedUntilSec ?? null,
    queuePosition: job.queuePosition,
    nowSec: job.nowSec,
  };
}

/** "#3 in the queue, budget rank 2 of 5": where a pending job stands. */
function placeOf(job: JobView): string {
  const place = job.queuePosition !== null ? `#${job.queuePosition} in the queue` : "In the queue";
  return job.budget.rank !== null
    ? `${place}, budget rank ${job.budget.rank} of ${job.budget.rankOf}`
    : place;
}

/**
 * A job's page: its state, why it waits, its request, runs and decisions, polled while it is
 * pending or running (seeded by the server). A cancel refetches it at once.
 */
export function JobDetail({
  jobId,
  viewer,
}: {
  jobId: string;
  viewer: { id: string | null; isAdmin: boolean };
}) {
  const queryClient = useQueryClient();
  const query = jobQuery(jobId);
  const { data: job } = useQuery(query);
  if (!job) return <p>Loading…</p>;
  const clock = liveTimeFormatter(job.nowSec);
  const isOpen = job.state === "pending" || job.state === "running";
  const canCancel = isOpen && (viewer.id === job.user.id || viewer.isAdmin);
  return (
    <>
      <PageHead
        title={job.name}
        actions={
          canCancel ? (
            <CancelButton
              jobId={job.id}
              jobName={job.name}
              facts={cancelFactsOf(job)}
              onCancelled={() => queryClient.invalidateQueries({ queryKey: query.queryKey })}
            />
          ) : null
        }
      >
        <p className="muted">
          <span className={`pill pill-state-${job.state}`}>{job.state}</span> on{" "}
          <Link href={`/clusters/${job.cluster}`}>{job.cluster}</Link> · {job.user.name} · submitted{" "}
          {clock(job.submittedSec)}
        </p>
        <ClockNote />
      </PageHead>
      {job.state === "pending" ? (
        <Card title={placeOf(job)} headingId="why-heading">
          {job.expectedStartAt ? (
            <p className="start-estimate">
              Expected to start by {clock(Date.parse(job.expectedStartAt) / 1000)}
            </p>
          ) : job.startNote ? (
            <p>
              <strong>No start time is known.</strong> {job.startNote}
            </p>
          ) : null}
          <p className="why">
            <strong>{job.waitSummary ?? AWAITING_NEXT_PASS}</strong>
          </p>
          {job.waitSentence ? (
            <>
              <h3>Details</h3>
              <p className="why">{job.waitSentence}</p>
            </>
          ) : null}
          {job.expectedStartAt ? <p className="fine-print">{START_ESTIMATE_CONDITIONS}</p> : null}
        </Card>
      ) : null}
      {job.cancel ? (
        <Card title="History" headingId="history-heading">
          <p className="why">
            {cancelSentence({
              byName: job.cancel.byName,
              isByPerson: job.cancel.isByPerson,
              at: clock(job.cancel.atSec),
              reason: job.cancel.reason,
            })}
          </p>
        </Card>
      ) : null}
      <Card title="Request" headingId="contract-heading">
        <dl className="facts">
          <div>
            <dt>Budget</dt>
            <dd>{job.budget.path}</dd>
          </div>
          {job.state === "pending" || job.state === "running" ? (
            <div>
              <dt>Budget rank now · usage of share</dt>
              <dd>
                {job.budget.rank === null ? "–" : `${job.budget.rank} of ${job.budget.rankOf}`} ·{" "}
                {job.budget.usageRatio === null ? "no share" : formatPercent(job.budget.usageRatio)}{" "}
                ·{" "}
                <Link href={`/clusters/${job.cluster}#ranks`}>
                  how budgets rank on {job.cluster}
                </Link>
              </dd>
            </div>
          ) : null}
          <div>
            <dt>GPUs</dt>
            <dd>
              {job.gpus}: {job.layout}
            </dd>
          </div>
          <div>
            <dt>Minimum runtime</dt>
            <dd>
              {job.minRuntimeSec === 0
                ? "0 (unallocated)"
                : `${formatExactDuration(job.minRuntimeSec)} (${job.minRuntimeSec} s)`}
            </dd>
          </div>
          <div>
            <dt>Resumable</dt>
            <dd>{job.isResumable ? "yes" : "no"}</dd>
          </div>
          <div>
            <dt>Priority</dt>
            <dd>{job.priority}</dd>
          </div>
          {job.externalId === null ? null : (
            <div>
              <dt>SLURM job</dt>
              <dd>{job.externalId} (submitted with sbatch; its SLURM comment says why it waits)</dd>
            </div>
          )}
        </dl>
      </Card>
      <Card title="Runs" headingId="runs-heading">
        <RunTimeline
          runs={job.runs}
          fromSec={job.submittedSec}
          toSec={job.endedSec ?? job.nowSec}
          nowSec={job.nowSec}
        />
      </Card>
      <Card title="Decisions" headingId="decisions-heading">
        {job.decisions.length === 0 ? (
          <p>No decision yet.</p>
        ) : (
          <ol className="decision-list">
            {job.decisions.map((decision) => (
              <li key={decision.id}>
                <div className="decision-meta">
                  {labelDecision(decision.kind, decision.rule)} · {clock(decision.atSec)}
                  {decision.preemptorJobId ? (
                    <>
                      {" · "}
                      <Link href={`/jobs/${decision.preemptorJobId}`}>the job that needed it</Link>
                    </>
                  ) : null}
                </div>
                <p className="why">
                  <strong>{decision.summary}</strong>
                </p>
                {decision.sentence !== decision.summary ? (
                  <p className="why">{decision.sentence}</p>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </Card>
    </>
  );
}
