"use client";

import { useActionState } from "react";
import type { NodeHealthState } from "@/app/(app)/clusters/[cluster]/nodes/actions";

const ACTIONS = [
  { health: "draining", label: "Drain" },
  { health: "down", label: "Mark down" },
  { health: "healthy", label: "Mark healthy" },
] as const;

type Props = {
  cluster: string;
  node: number;
  health: string;
  healthAction: (state: NodeHealthState, form: FormData) => Promise<NodeHealthState>;
};

/** The health buttons of one node; a refusal, or why nothing changed, shows beside them. */
export function NodeHealthForm({ cluster, node, health, healthAction }: Props) {
  const [state, action, isPending] = useActionState(healthAction, null);
  const isRefused = state?.ok === false;
  const message = state?.ok === false ? state.error.message : (state?.data.note ?? null);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="cluster" value={cluster} />
      <input type="hidden" name="node" value={node} />
      {ACTIONS.filter((choice) => choice.health !== health).map((choice) => (
        <button
          key={choice.health}
          className="button button-small"
          type="submit"
          name="health"
          value={choice.health}
          disabled={isPending}
          aria-label={`${choice.label} node ${node}`}
        >
          {choice.label}
        </button>
      ))}
      {message ? (
        <span
          role={isRefused ? "alert" : "status"}
          className={isRefused ? "field-error" : "field-hint"}
        >
          {message}
        </span>
      ) : null}
    </form>
  );
}
