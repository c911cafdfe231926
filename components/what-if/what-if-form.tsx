"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition, type FormEvent } from "react";
import type { FieldIssue } from "@/lib/errors";
import { startWhatIf } from "@/lib/api-client/budgets";
import { formatDate } from "@/lib/format";
import { whatIfHref } from "./what-if-href";
import { takeWhatIfRefusal } from "./what-if-refusal";

const DAY_SEC = 86_400;

/**
 * Period (first and last day, UTC), clusters and the optional control replay of a new what-if;
 * opens its page when queued.
 */
export function WhatIfForm({
  draftId,
  nodeId,
  clusters,
  defaultFrom,
  defaultTo,
  defaultClusters = clusters,
}: {
  draftId: string;
  nodeId: string;
  clusters: string[];
  /** First day, and the day after the last one, "YYYY-MM-DD". */
  defaultFrom: string;
  defaultTo: string;
  /** The clusters ticked at first (a review of one cluster led here); default all. */
  defaultClusters?: string[];
}) {
  const router = useRouter();
  const [from, setFrom] = useState(defaultFrom);
  const [lastDay, setLastDay] = useState(formatDate(Date.parse(defaultTo) / 1000 - DAY_SEC));
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(defaultClusters));
  const [hasControl, setHasControl] = useState(false);
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  // Opened by the split editor after its "Try on …" was refused: show what was tried, and why.
  // Browser storage, read once after hydration: the server's render cannot know it.
  useEffect(() => {
    const refusal = takeWhatIfRefusal(draftId);
    if (!refusal) return;
    /* eslint-disable react-hooks/set-state-in-effect */
    if (refusal.from) setFrom(refusal.from.slice(0, 10));
    if (refusal.to) setLastDay(formatDate(Date.parse(refusal.to) / 1000 - DAY_SEC));
    if (refusal.clusters) setChosen(new Set(refusal.clusters));
    setIssues(refusal.issues);
    setError(refusal.message);
    /* eslint-enable react-hooks/set-state-in-effect */
  }, [draftId]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setIssues([]);
    const end = Date.parse(lastDay);
    const to = Number.isNaN(end) ? lastDay : formatDate(end / 1000 + DAY_SEC);
    startTransition(async () => {
      const result = await startWhatIf(draftId, {
        from,
        to,
        clusters: [...chosen].sort(),
        hasControl,
      });
      if (result.ok) {
        router.push(whatIfHref(nodeId, draftId, result.value.whatIf.id));
        return;
      }
      setIssues(result.error.issues);
      setError(result.error.message);
    });
  }
  const issueAt = (path: string) => issues.find((issue) => issue.path.startsWith(path))?.message;
  // The dates' issues stand beside their fields; the alert adds only the others (clusters...).
  const otherIssues = issues.filter(
    (issue) => !issue.path.startsWith("from") && !issue.path.startsWith("to"),
  );
  return (
    <form className="draft-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="what-if-from">First day</label>
        <input
          id="what-if-from"
          type="date"
          value={from}
          onChange={(event) => setFrom(event.target.value)}
          aria-invalid={issueAt("from") !== undefined}
        />
        <p className="field-error">{issueAt("from")}</p>
      </div>
      <div className="field">
        <label htmlFor="what-if-to">Last day</label>
        <input
          id="what-if-to"
          type="date"
          value={lastDay}
          onChange={(event) => setLastDay(event.target.value)}
          aria-invalid={issueAt("to") !== undefined}
        />
        <p className="field-error">{issueAt("to")}</p>
      </div>
      <fieldset>
        <legend className="sr-only">Clusters</legend>
        {clusters.map((name) => (
          <label key={name}>
            <input
              type="checkbox"
              checked={chosen.has(name)}
              onChange={(event) => {
                const next = new Set(chosen);
                if (event.target.checked) next.add(name);
                else next.delete(name);
                setChosen(next);
              }}
            />{" "}
            {name}
          </label>
        ))}
        {chosen.size === 0 ? (
          <p className="field-error" id="what-if-no-cluster">
            Tick at least one cluster to replay.
          </p>
        ) : null}
      </fieldset>
      <label>
        <input
          type="checkbox"
          checked={hasControl}
          onChange={(event) => setHasControl(event.target.checked)}
        />{" "}
        Also replay the current split as a control (about twice the time)
      </label>
      <button
        type="submit"
        className="button button-primary"
        disabled={isPending || chosen.size === 0}
        aria-describedby={chosen.size === 0 ? "what-if-no-cluster" : undefined}
      >
        {isPending ? "Starting…" : "Run what-if"}
      </button>
      {error ? (
        <p className="alert" role="alert">
          {error}
          {otherIssues.length > 0
            ? ` ${otherIssues.map((issue) => issue.message).join(" ")}`
            : null}
        </p>
      ) : null}
    </form>
  );
}
