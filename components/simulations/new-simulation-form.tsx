"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent, type InputHTMLAttributes } from "react";
import type { FieldIssue } from "@/lib/errors";
import { DEFAULT_SEED, PHILLY_DEFAULT_GPUS } from "@/lib/simulations/scenario-options";
import { MAX_SIMULATION_DAYS } from "@/lib/validation/simulation-limits";
import { startSimulation } from "@/lib/api-client/simulations";
import { describeDaysOption, PHILLY_CITATION } from "./sim-labels";

type Source = "lab" | "philly" | "tree" | "upload";

const SOURCES: { value: Source; title: string; detail: string }[] = [
  {
    value: "lab",
    title: "Generated lab",
    detail:
      "The demo lab: 1,624 GPUs on three clusters, 4 programs, 15 projects, demand 2-3x supply.",
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
    detail: "A JSON scenario: clusters, tree, jobs, optional node events.",
  },
];

type Problem = { message: string; issues: FieldIssue[] };

function numberOrUndefined(value: FormDataEntryValue | null): number | undefined {
  const text = typeof value === "string" ? value.trim() : "";
  return text === "" ? undefined : Number(text);
}

/**
 * An option: its label, an empty input (no placeholder that could pass for a value) and a hint
 * that says what empty means, read out with the field.
 */
function OptionField({
  label,
  hint,
  error,
  ...input
}: {
  label: string;
  hint: string;
  name: string;
  error?: string | undefined;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        {...input}
      />
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
      <span id={`${id}-hint`} className="hint">
        {hint}
      </span>
    </div>
  );
}

/** The form's own fields by the paths the server names them with. */
const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  scenario: "Scenario file",
  "(file)": "Scenario file",
  "options.lookback": "Lookback window",
  "options.maxMinRuntime": "Maximum minimum runtime",
  "options.clusterGpus": "Cluster size (GPUs)",
  "options.days": "Days",
  "options.seed": "Seed",
};

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
      const result = await startSimulation(body);
      if (!result.ok) {
        setProblem({ message: result.error.message, issues: result.error.issues });
        return;
      }
      router.push(`/simulations/${result.value.simulation.id}`);
    } finally {
      setIsSubmitting(false);
    }
  }

  const usesDays = source !== "upload";
  /** The first problem the server found with a field of the form, if any. */
  const errorOf = (path: string): string | undefined =>
    problem?.issues.find((issue) => issue.path === path)?.message;
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
          <div className="field">
            <label htmlFor="scenario-file">Scenario file (JSON)</label>
            <input
              id="scenario-file"
              type="file"
              name="scenario"
              accept="application/json,.json"
              aria-describedby="scenario-file-hint"
              required
            />
            <span id="scenario-file-hint" className="hint">
              Clusters, the budget tree, jobs, and optional settings and node events. The file is
              checked when you start: every problem is listed with its place in the file. Its
              format: <a href="/docs/simulator.md">the simulator&apos;s files</a>.
            </span>
          </div>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Options</legend>
        <p className="muted small">
          Leave a field empty for its default, given under it. What the options do and how the two
          schedulers are compared: <a href="/docs/simulations.md">Simulations guide</a>.
        </p>
        <div className="field-grid">
          <OptionField
            name="name"
            error={errorOf("name")}
            label="Name (optional)"
            hint="Shown in the list of simulations. Empty: the scenario's name."
            maxLength={120}
          />
          <OptionField
            name="lookback"
            error={errorOf("options.lookback")}
            label="Lookback window"
            hint="How far back usage counts for ranking, as 3d, 7d or 14d. Empty: the scenario's own, else 7d."
          />
          <OptionField
            name="maxMinRuntime"
            error={errorOf("options.maxMinRuntime")}
            label="Maximum minimum runtime"
            hint="Longer protected periods are capped to this, as 4h or 8h. Empty: the scenario's own, else 8h."
          />
          <OptionField
            name="clusterGpus"
            error={errorOf("options.clusterGpus")}
            label="Cluster size (GPUs)"
            type="number"
            min={8}
            step={8}
            hint={`Every cluster resized to about this many GPUs, in whole nodes of its own size; a job asking for more is cut to the cluster's size. Empty: ${
              source === "philly" ? `${PHILLY_DEFAULT_GPUS} GPUs` : "as the scenario gives them"
            }.`}
          />
          {usesDays ? (
            <OptionField
              name="days"
              error={errorOf("options.days")}
              label="Days"
              type="number"
              min={1}
              max={MAX_SIMULATION_DAYS}
              hint={describeDaysOption(source)}
            />
          ) : null}
          {source === "lab" || source === "tree" ? (
            <OptionField
              name="seed"
              error={errorOf("options.seed")}
              label="Seed"
              type="number"
              min={0}
              hint={`Same seed, same workload. Empty: ${DEFAULT_SEED}.`}
            />
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
                  {FIELD_LABELS[issue.path] ? (
                    <strong>{FIELD_LABELS[issue.path]}</strong>
                  ) : (
                    <code>{issue.path}</code>
                  )}
                  : {issue.message}
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
