"use client";

import { ScrollRegion } from "@/components/layout/scroll-region";
import type { FieldIssue } from "@/lib/errors";
import { formatInteger, formatPercent } from "@/lib/format";
import {
  gpuHoursByCluster,
  parseWeight,
  type ClusterRef,
  type DraftChild,
  type PreviewRow,
} from "./tree-model";

/** A slider range that fits the weights in play: 1, 2 or 5 x 10^k, at least twice the largest. */
function sliderMaxFor(weights: number[], maxWeight: number): number {
  const target = Math.max(1, ...weights) * 2;
  const power = 10 ** Math.floor(Math.log10(target));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= target) ?? 10;
  return Math.min(maxWeight, step * power);
}

/**
 * A field's message, always in the page (empty until there is one) so that the field can name it
 * with aria-describedby and a screen reader hears it as it appears.
 */
function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return (
    <p id={id} className="field-error" role="alert">
      {message ?? ""}
    </p>
  );
}

/** The children being edited: name, weight (number and slider) and their new shares. */
export function SplitRows({
  draft,
  base,
  preview,
  clusters,
  issues,
  maxWeight,
  onChange,
}: {
  draft: DraftChild[];
  base: { children: { id: string; name: string; weight: number }[] };
  preview: PreviewRow[];
  clusters: ClusterRef[];
  issues: FieldIssue[];
  maxWeight: number;
  onChange: (next: DraftChild[]) => void;
}) {
  // From the saved weights, so the sliders do not rescale under the pointer while dragging.
  const sliderMax = Math.max(
    sliderMaxFor(
      base.children.map((child) => child.weight),
      maxWeight,
    ),
    ...draft.map((child) => Math.min(parseWeight(child.weightText) ?? 0, maxWeight)),
  );
  const previewById = new Map(preview.map((row) => [row.id, row]));
  let newIndex = 0;
  const errorAt = (index: number, field: string) =>
    issues.find((issue) => issue.path === `children.${index}.${field}`)?.message;

  function set(index: number, patch: Partial<DraftChild>) {
    onChange(draft.map((child, at) => (at === index ? { ...child, ...patch } : child)));
  }

  // A leaf has no children yet: no header-only table before "Add a budget".
  if (draft.length === 0) return null;

  return (
    <ScrollRegion label="Children and their new shares">
      <table className="split-table rows-as-blocks">
        <caption className="sr-only">Children and their new shares</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Weight</th>
            <th scope="col" className="num">
              New fraction
            </th>
            <th scope="col" className="num">
              New share
            </th>
            {clusters.map((cluster) => (
              <th scope="col" className="num" key={cluster.name}>
                {cluster.gpuType}-h/week
              </th>
            ))}
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {draft.map((child, index) => {
            const label = child.id
              ? (base.children.find((old) => old.id === child.id)?.name ?? child.name)
              : `new budget ${index + 1}`;
            const row = previewById.get(child.id ?? `draft:${newIndex++}`);
            const weight = parseWeight(child.weightText);
            const nameError = errorAt(index, "name") ?? errorAt(index, "id");
            const weightError = errorAt(index, "weight");
            const nameErrorId = `split-${child.key}-name-error`;
            const weightErrorId = `split-${child.key}-weight-error`;
            return (
              <tr key={child.key}>
                <td className="split-name" data-label="Name">
                  <input
                    className="name-input"
                    aria-label={`Name of ${label}`}
                    value={child.name}
                    aria-invalid={nameError ? true : undefined}
                    aria-describedby={nameErrorId}
                    onChange={(event) => set(index, { name: event.target.value })}
                  />
                  <FieldError id={nameErrorId} message={nameError} />
                </td>
                <td className="split-weight" data-label="Weight">
                  <div className="weight-inputs">
                    <input
                      type="number"
                      className="weight-input"
                      min={0}
                      max={maxWeight}
                      step="any"
                      inputMode="decimal"
                      aria-label={`Weight of ${label}`}
                      value={child.weightText}
                      aria-invalid={weightError ? true : undefined}
                      aria-describedby={weightErrorId}
                      onChange={(event) => set(index, { weightText: event.target.value })}
                    />
                    <input
                      type="range"
                      min={0}
                      max={sliderMax}
                      step={sliderMax / 200}
                      aria-label={`Weight of ${label}, slider`}
                      value={Math.min(weight ?? 0, sliderMax)}
                      onChange={(event) => set(index, { weightText: event.target.value })}
                    />
                  </div>
                  <FieldError id={weightErrorId} message={weightError} />
                </td>
                <td className="num" data-label="New fraction">
                  {row ? formatPercent(row.fraction) : "—"}
                </td>
                <td className="num" data-label="New share">
                  {row ? formatPercent(row.effectiveShare) : "—"}
                </td>
                {clusters.map((cluster, at) => (
                  <td className="num" key={cluster.name} data-label={`${cluster.gpuType}-h/week`}>
                    {row
                      ? formatInteger(gpuHoursByCluster(row.effectiveShare, clusters)[at]!)
                      : "—"}
                  </td>
                ))}
                <td className="split-remove">
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Remove ${label}`}
                    onClick={() => onChange(draft.filter((_, at) => at !== index))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
