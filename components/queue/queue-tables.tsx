import Link from "next/link";
import "./queue.css";
import { ScrollRegion } from "@/components/layout/scroll-region";
import type { QueuedJob, RunningRun } from "@/lib/data/queue";
import {
  formatHostList,
  formatInteger,
  formatNodeList,
  formatPercent,
  formatSpan,
  liveTimeFormatter,
} from "@/lib/format";

function ratio(value: number | null): string {
  return value === null ? "no share" : formatPercent(value);
}

/** "yours", in words beside the name: a mark that does not rely on colour. */
/** " · SLURM job 812" beside the owner of a job submitted with sbatch; nothing for others. */
function slurmIdNote(externalId: string | null): string {
  return externalId === null ? "" : ` · SLURM job ${externalId}`;
}

export function MineMark() {
  return <span className="mine-mark">yours</span>;
}

/** Pending jobs in queue order: a plain summary first, the details below, the start estimate. */
export function PendingTable({
  jobs,
  nowSec,
  rankedBudgets,
  viewerId,
  emptyText = "No job is waiting.",
}: {
  jobs: QueuedJob[];
  nowSec: number;
  rankedBudgets: number;
  viewerId?: string;
  emptyText?: string;
}) {
  if (jobs.length === 0) return <p>{emptyText}</p>;
  const clock = liveTimeFormatter(nowSec);
  return (
    <ScrollRegion label="Pending jobs in queue order">
      <table className="queue-table rows-as-blocks">
        <caption className="sr-only">Pending jobs in queue order</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Job</th>
            <th scope="col">Budget</th>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col" className="num">
              Usage
            </th>
            <th scope="col">Priority</th>
            <th scope="col" className="num">
              GPUs
            </th>
            <th
              scope="col"
              className="num"
              title="Since it was submitted, or since its last run ended when it was requeued"
            >
              Waiting
            </th>
            <th scope="col">Why waiting</th>
            <th scope="col">Expected start</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const isMine = job.userId === viewerId;
            return (
              <tr key={job.jobId} className={isMine ? "is-mine" : undefined}>
                <td className="num queue-position">{job.position ?? "–"}</td>
                <th scope="row" className="tree-row-head queue-job">
                  <Link href={`/jobs/${job.jobId}`}>{job.name}</Link>
                  {isMine ? <MineMark /> : null}
                  <div className="muted">
                    {job.userName}
                    {slurmIdNote(job.externalId)}
                  </div>
                </th>
                <td data-label="Budget">{job.budgetPath}</td>
                <td className="num" data-label="Rank">
                  {job.rank === null ? "–" : `${job.rank} of ${rankedBudgets}`}
                </td>
                <td className="num" data-label="Usage">
                  {ratio(job.usageRatio)}
                </td>
                <td data-label="Priority">{job.priority}</td>
                <td className="num" data-label="GPUs">
                  {formatInteger(job.gpus)}
                </td>
                <td className="num" data-label="Waiting">
                  {formatSpan(job.waitingSec)}
                </td>
                <td className="why queue-reason">
                  <p>{job.summary}</p>
                  {job.sentence !== job.summary ? (
                    <details>
                      <summary>Details</summary>
                      <p>{job.sentence}</p>
                    </details>
                  ) : null}
                </td>
                <td className="why queue-reason" data-label="Expected start">
                  {job.expectedStartAt ? (
                    <span className="start-estimate">
                      by {clock(Date.parse(job.expectedStartAt) / 1000)}
                    </span>
                  ) : (
                    (job.startNote ?? "–")
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Running runs, allocated or not, with the time left in their protected period. */
export function RunningTable({
  runs,
  nowSec,
  viewerId,
  emptyText = "Nothing is running.",
}: {
  runs: RunningRun[];
  nowSec: number;
  viewerId?: string;
  emptyText?: string;
}) {
  if (runs.length === 0) return <p>{emptyText}</p>;
  return (
    <ScrollRegion label="Running jobs">
      <table className="queue-table rows-as-blocks">
        <caption className="sr-only">Running jobs</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Budget</th>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col" className="num">
              GPUs
            </th>
            <th scope="col">Nodes</th>
            <th scope="col">Kind</th>
            <th scope="col" className="num">
              Running for
            </th>
            <th scope="col">Protection</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const leftSec = run.protectedUntilSec - nowSec;
            const isMine = run.userId === viewerId;
            return (
              <tr key={run.runId} className={isMine ? "is-mine" : undefined}>
                <th scope="row" className="tree-row-head queue-job">
                  <Link href={`/jobs/${run.jobId}`}>{run.name}</Link>
                  {isMine ? <MineMark /> : null}
                  <div className="muted">
                    {run.userName}
                    {slurmIdNote(run.externalId)}
                    {run.isStartAcknowledged ? "" : " · starting"}
                  </div>
                </th>
                <td data-label="Budget">{run.budgetPath}</td>
                <td className="num" data-label="Rank">
                  {run.rank ?? "–"}
                </td>
                <td className="num" data-label="GPUs">
                  {formatInteger(run.gpus)}
                </td>
                <td data-label="Nodes">
                  {run.hosts ? formatHostList(run.hosts) : formatNodeList(run.nodes)}
                </td>
                <td>
                  <span className={`pill ${run.isAllocated ? "pill-allocated" : ""}`}>
                    {run.isAllocated ? "allocated" : "unallocated"}
                  </span>
                </td>
                <td className="num" data-label="Running for">
                  {formatSpan(nowSec - run.startedSec)}
                </td>
                <td data-label="Protection">
                  {!run.isAllocated
                    ? "never protected"
                    : leftSec > 0
                      ? `protected for ${formatSpan(leftSec)} more`
                      : "unprotected"}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
