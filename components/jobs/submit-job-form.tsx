"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { submitJob } from "@/lib/api-client/jobs";
import {
  describePlacement,
  formatExactDuration,
  minRuntimeProblem,
  readMinutes,
} from "@/lib/engine/request-preview";

export type ClusterChoice = {
  name: string;
  gpuType: string;
  gpus: number;
  nodeSizeGpus: number;
  maxMinRuntimeSec: number;
};
export type BudgetChoice = { id: string; path: string };
type Issue = { path: string; message: string };

type FieldName = "cluster" | "budgetId" | "name" | "gpus" | "minRuntimeSec" | "priority";

/** Submits through POST /api/v1/jobs and shows every rule's field error beside its field. */
export function SubmitJobForm({
  clusters,
  budgets,
  initialCluster,
}: {
  clusters: ClusterChoice[];
  budgets: BudgetChoice[];
  initialCluster: string;
}) {
  const router = useRouter();
  const [issues, setIssues] = useState<Issue[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [cluster, setCluster] = useState(initialCluster);
  const [gpusText, setGpusText] = useState("8");
  const [minutesText, setMinutesText] = useState("60");
  const chosen = clusters.find((entry) => entry.name === cluster);
  const errorOf = (field: string) => issues.find((issue) => issue.path === field)?.message;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setIssues([]);
    setMessage(null);
    const minutes = String(form.get("minRuntimeMin") ?? "");
    const body = {
      cluster: form.get("cluster"),
      budgetId: form.get("budgetId"),
      name: form.get("name"),
      gpus: Number(form.get("gpus")),
      // Never rounded: a value that is not whole seconds goes as typed and is refused.
      minRuntimeSec: readMinutes(minutes).sec ?? Number.NaN,
      isResumable: form.get("isResumable") === "on",
      priority: form.get("priority"),
    };
    const result = await submitJob(body);
    setBusy(false);
    if (result.ok) {
      router.push(`/jobs/${result.value.job.id}`);
      return;
    }
    // The field is in minutes; the API's message about it counts seconds: say it as typed.
    const minutesProblem = minRuntimeProblem(minutes, chosen);
    const others = result.error.issues.filter((issue) => issue.path !== "minRuntimeSec");
    setIssues(
      minutesProblem
        ? [...others, { path: "minRuntimeSec", message: minutesProblem }]
        : result.error.issues,
    );
    setMessage(result.error.message);
  }

  const field = (name: FieldName) => ({
    id: `f-${name}`,
    "aria-invalid": errorOf(name) ? true : undefined,
    "aria-describedby": `f-${name}-hint f-${name}-error`,
  });
  const error = (name: string) => (
    <div id={`f-${name}-error`} className="field-error">
      {errorOf(name) ?? ""}
    </div>
  );

  return (
    <form className="form-grid" onSubmit={(event) => void submit(event)} noValidate>
      {message ? (
        <div role="alert" className="alert">
          {message}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="f-name">Name</label>
        <input type="text" name="name" required {...field("name")} />
        <div id="f-name-hint" className="field-hint">
          Free text, e.g. &ldquo;llama-7b sweep 3&rdquo;.
        </div>
        {error("name")}
      </div>
      <div className="field">
        <label htmlFor="f-cluster">Cluster</label>
        <select
          name="cluster"
          value={cluster}
          onChange={(e) => setCluster(e.target.value)}
          {...field("cluster")}
        >
          {clusters.map((entry) => (
            <option key={entry.name} value={entry.name}>
              {entry.name} ({entry.gpus} {entry.gpuType})
            </option>
          ))}
        </select>
        <div id="f-cluster-hint" className="field-hint" />
        {error("cluster")}
      </div>
      <div className="field">
        <label htmlFor="f-budgetId">Budget</label>
        <select name="budgetId" {...field("budgetId")}>
          {budgets.map((budget) => (
            <option key={budget.id} value={budget.id}>
              {budget.path}
            </option>
          ))}
        </select>
        <div id="f-budgetId-hint" className="field-hint">
          The budgets you are a member of; the job&apos;s allocated time is charged to it.
        </div>
        {error("budgetId")}
      </div>
      <div className="field">
        <label htmlFor="f-gpus">GPUs</label>
        <input
          type="number"
          name="gpus"
          min={1}
          value={gpusText}
          onChange={(e) => setGpusText(e.target.value)}
          {...field("gpus")}
        />
        <div id="f-gpus-hint" className="field-hint">
          Up to {chosen?.gpus ?? "?"}; more than a node takes whole nodes, and the rest on one more.
        </div>
        {error("gpus")}
      </div>
      <div className="field">
        <label htmlFor="f-minRuntimeSec">Minimum runtime (minutes)</label>
        <input
          type="number"
          name="minRuntimeMin"
          min={0}
          step="any"
          value={minutesText}
          onChange={(e) => setMinutesText(e.target.value)}
          {...field("minRuntimeSec")}
        />
        <div id="f-minRuntimeSec-hint" className="field-hint">
          0 to {(chosen?.maxMinRuntimeSec ?? 28_800) / 60}. Protected from preemption for this long;
          0 runs as free, unallocated work.
        </div>
        {error("minRuntimeSec")}
      </div>
      <div className="field">
        <label htmlFor="f-priority">Priority within the budget</label>
        <select name="priority" defaultValue="normal" {...field("priority")}>
          <option value="low">low</option>
          <option value="normal">normal</option>
          <option value="high">high</option>
        </select>
        <div id="f-priority-hint" className="field-hint">
          Orders your budget&apos;s own jobs only.
        </div>
        {error("priority")}
      </div>
      <div className="field">
        <label>
          <input type="checkbox" name="isResumable" defaultChecked /> Resumable (requeued with its
          remaining work if preempted)
        </label>
      </div>
      <SubmitPreview cluster={chosen} gpusText={gpusText} minutesText={minutesText} />
      <p>
        <button className="button button-primary" type="submit" disabled={isBusy}>
          {isBusy ? "Submitting…" : "Submit job"}
        </button>
      </p>
    </form>
  );
}

/** What the scheduler will do with the request as typed, before it is sent: nothing is changed. */
function SubmitPreview({
  cluster,
  gpusText,
  minutesText,
}: {
  cluster: ClusterChoice | undefined;
  gpusText: string;
  minutesText: string;
}) {
  const gpus = Number(gpusText);
  const minutes = readMinutes(minutesText);
  const lines: string[] = [];
  if (cluster && Number.isInteger(gpus) && gpus >= 1) {
    lines.push(
      gpus > cluster.gpus
        ? `${gpus} GPUs: more than ${cluster.name}'s ${cluster.gpus}; it will be refused.`
        : `${gpus} ${gpus === 1 ? "GPU" : "GPUs"} on ${cluster.name}'s ${cluster.nodeSizeGpus}-GPU nodes: ` +
            `${describePlacement(gpus, cluster.nodeSizeGpus)}.`,
    );
  } else {
    lines.push("GPUs: give a whole number of at least 1.");
  }
  if (!minutes.ok) lines.push(`${minutes.message} It will be refused as it is.`);
  else if (minutes.sec === 0) {
    lines.push(
      "Minimum runtime 0: it runs as unallocated work, charged to nobody and preempted whenever an allocated job needs its GPUs.",
    );
  } else if (cluster && minutes.sec > cluster.maxMinRuntimeSec) {
    lines.push(
      `Minimum runtime ${formatExactDuration(minutes.sec)}: more than ${cluster.name}'s maximum of ` +
        `${formatExactDuration(cluster.maxMinRuntimeSec)}; it will be refused.`,
    );
  } else {
    lines.push(
      `Minimum runtime ${formatExactDuration(minutes.sec)} (${minutes.sec.toLocaleString("en-US")} s): ` +
        "nothing but a node failure preempts it for that long once it starts.",
    );
  }
  return (
    <section className="submit-preview" aria-labelledby="preview-heading" aria-live="polite">
      <h2 id="preview-heading">What will happen</h2>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
