"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { FieldIssue } from "@/lib/errors";
import { PHILLY_CITATION } from "./sim-format";

type Source = "lab" | "philly" | "tree" | "upload";

const SOURCES: { value: Source; title: string; detail: string }[] = [
  {
    value: "lab",
    title: "Generated lab",
    detail:
      "The lab of the design: 1,624 GPUs on three clusters, 4 programs, 15 projects, demand 2-3x supply.",
  },
  {
    value: "philly",
    title: "Philly trace",
    detail: `82,247 real deep-learning jobs over 15 teams, Sept-Dec 2017 (${PHILLY_CITATION}, CC-BY-4.0).`,
  },
  {
    value: "tree",
    title: "Current tree",
    detail: "This organisation's budget tree and clusters, with a generated workload.",
  },
  {
    value: "upload",
    title: "Upload a scenario file",
    detail: "A JSON scenario (design section 6): clusters, tree, jobs, optional node events.",
  },
];

type Problem = { message: string; issues: FieldIssue[] };

function numberOrUndefined(value: FormDataEntryValue | null): number | undefined {
  const text = typeof value === "string" ? value.trim() : "";
  return text === "" ? undefined : Number(text);
}

/** Picks a scenario and options, starts the simulation, and opens its page. */
export function NewSimulationForm() {
  const router = useRouter();
  const [source, setSource] = useState<Source>("lab");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    const options = {
      lookback: text("lookback"),
      maxMinRuntime: text("maxMinRuntime"),
      clusterGpus: numberOrUndefined(form.get("clusterGpus")),
      days: source === "upload" ? undefined : numberOrUndefined(form.get("days")),
      seed: source === "lab" || source === "tree" ? numberOrUndefined(form.get("seed")) : undefined,
    };
    const body: Record<string, unknown> = { source, options, name: text("name") };
    if (source === "upload") {
      const file = form.get("scenario");
      if (!(file instanceof File) || file.size === 0) {
        setProblem({ message: "Choose a scenario file to upload.", issues: [] });
        return;
      }
      try {
        body.scenario = JSON.parse(await file.text()) as unknown;
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        setProblem({
          message: `${file.name} is not valid JSON.`,
          issues: [{ path: "(file)", message: why }],
        });
        return;
      }
      body.name ??= file.name.replace(/\.json$/i, "");
    }
    setIsSubmitting(true);
    try {
      const response = await fetch("/api/v1/simulations", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as {
        simulation?: { id: string };
        error?: { message: string; issues?: FieldIssue[] };
      };
      if (!response.ok || !answer.simulation) {
        setProblem({
          message: answer.error?.message ?? `The server answered ${response.status}.`,
          issues: answer.error?.issues ?? [],
        });
        return;
      }
      router.push(`/simulations/${answer.simulation.id}`);
    } finally {
      setIsSubmitting(false);
    }
  }

  const usesDays = source !== "upload";
  return (
    <form className="card sim-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <fieldset>
        <legend>Scenario</legend>
        <div className="source-grid">
          {SOURCES.map((choice) => (
            <label
              key={choice.value}
              className="source-choice"
              data-checked={source === choice.value}
            >
              <input
                type="radio"
                name="source"
                value={choice.value}
                checked={source === choice.value}
                onChange={() => setSource(choice.value)}
              />
              <span>
                <strong>{choice.title}</strong>
                <span className="muted">{choice.detail}</span>
              </span>
            </label>
          ))}
        </div>
        {source === "upload" ? (
          <label className="field">
            Scenario file (JSON)
            <input type="file" name="scenario" accept="application/json,.json" required />
          </label>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Options</legend>
        <div className="field-grid">
          <label className="field">
            <span>
              Name <span className="muted">(optional)</span>
            </span>
            <input name="name" placeholder="e.g. March review, 3-day window" maxLength={120} />
          </label>
          <label className="field">
            Lookback window
            <input name="lookback" placeholder="7d" />
            <span className="hint">How far back usage counts for ranking (e.g. 3d, 7d, 14d).</span>
          </label>
          <label className="field">
            Maximum minimum runtime
            <input name="maxMinRuntime" placeholder="8h" />
            <span className="hint">Longer protected periods are capped to this.</span>
          </label>
          <label className="field">
            Cluster size (GPUs)
            <input
              name="clusterGpus"
              type="number"
              min={8}
              step={8}
              placeholder={source === "philly" ? "384" : "as given"}
            />
            <span className="hint">Every cluster resized to this many GPUs, 8 per node.</span>
          </label>
          {usesDays ? (
            <label className="field">
              Days
              <input
                name="days"
                type="number"
                min={1}
                max={120}
                placeholder={source === "philly" ? "whole trace" : "14"}
              />
              <span className="hint">
                {source === "philly"
                  ? "Only the trace's first N days."
                  : "Length of the generated workload."}
              </span>
            </label>
          ) : null}
          {source === "lab" || source === "tree" ? (
            <label className="field">
              Seed
              <input name="seed" type="number" min={0} placeholder="1" />
              <span className="hint">Same seed, same workload.</span>
            </label>
          ) : null}
        </div>
      </fieldset>
      {problem ? (
        <div className="alert" role="alert">
          <strong>{problem.message}</strong>
          {problem.issues.length > 0 ? (
            <ul className="issue-list" aria-label="Problems">
              {problem.issues.map((issue, i) => (
                <li key={`${issue.path}-${i}`}>
                  <code>{issue.path}</code>: {issue.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <button type="submit" className="button button-primary" disabled={isSubmitting}>
        {isSubmitting ? "Starting…" : "Run simulation"}
      </button>
    </form>
  );
}
