import type { GpuSplit } from "@/lib/engine";
import { formatInteger } from "@/lib/format";

type PartKey = "allocatedGpus" | "unallocatedGpus" | "idleGpus" | "drainingGpus" | "downGpus";

// The parts partition the cluster's GPUs (see splitGpus): each GPU is in exactly one.
const PARTS: { key: PartKey; label: string; className: string }[] = [
  { key: "allocatedGpus", label: "running allocated work", className: "seg-allocated" },
  { key: "unallocatedGpus", label: "running unallocated work", className: "seg-unallocated" },
  { key: "idleGpus", label: "idle", className: "seg-idle" },
  { key: "drainingGpus", label: "on draining nodes", className: "seg-draining" },
  { key: "downGpus", label: "on down nodes", className: "seg-down" },
];

function labelOf(part: (typeof PARTS)[number], split: GpuSplit): string {
  const text = `${formatInteger(split[part.key])} ${part.label}`;
  if (part.key === "drainingGpus" && split.drainingGpus > 0) {
    return `${text} (${formatInteger(split.drainingBusyGpus)} still busy)`;
  }
  return text;
}

/**
 * A stacked bar of a cluster's GPUs and a legend naming each part; the parts add up to the
 * cluster's GPUs, and the legend says so.
 */
export function GpuBar({ split, clusterName }: { split: GpuSplit; clusterName: string }) {
  const text = PARTS.map((part) => labelOf(part, split)).join(", ");
  return (
    <div>
      <div
        className="gpu-bar"
        role="img"
        aria-label={`${formatInteger(split.totalGpus)} GPUs: ${text}`}
      >
        {PARTS.map((part) =>
          split[part.key] > 0 ? (
            <span
              key={part.key}
              className={part.className}
              style={{ width: `${(100 * split[part.key]) / Math.max(1, split.totalGpus)}%` }}
            />
          ) : null,
        )}
      </div>
      <ul className="legend" aria-label={`${clusterName} GPUs by state`}>
        {PARTS.map((part) => (
          <li key={part.key}>
            <span className={`swatch ${part.className}`} aria-hidden="true" />
            {labelOf(part, split)}
          </li>
        ))}
      </ul>
      <p className="muted gpu-sum">
        Each GPU is in one part: {PARTS.map((part) => formatInteger(split[part.key])).join(" + ")} ={" "}
        {formatInteger(split.totalGpus)} GPUs. Healthy nodes only in the first three.
      </p>
    </div>
  );
}
