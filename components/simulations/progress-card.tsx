import type { ReactNode } from "react";

/** A simulation's (or what-if's) progress while a worker runs it. */
export function ProgressCard({
  status,
  progress,
  phase,
  title,
  label,
  children,
}: {
  status: string;
  progress: number;
  phase: string | null;
  /** The heading while running. */
  title: string;
  /** The progress bar's accessible name. */
  label: string;
  children?: ReactNode;
}) {
  const percent = Math.round(progress * 100);
  return (
    <section className="card" aria-labelledby="progress-heading">
      <h2 id="progress-heading">{status === "queued" ? "Queued: waiting for a worker" : title}</h2>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="muted">
        {percent}% · {phase ?? "queued"}
      </p>
      {children}
    </section>
  );
}
