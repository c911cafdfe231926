import { formatInteger } from "@/lib/format";

export type GpuSplit = {
  allocatedGpus: number;
  unallocatedGpus: number;
  idleGpus: number;
  unusableGpus: number;
};

const PARTS = [
  { key: "allocatedGpus", label: "allocated", className: "seg-allocated" },
  { key: "unallocatedGpus", label: "unallocated", className: "seg-unallocated" },
  { key: "idleGpus", label: "idle", className: "seg-idle" },
  { key: "unusableGpus", label: "draining or down", className: "seg-unusable" },
] as const;

/** A stacked bar of a cluster's GPUs, with the same numbers as text for screen readers. */
export function GpuBar({ split, totalGpus }: { split: GpuSplit; totalGpus: number }) {
  const text = PARTS.map((part) => `${formatInteger(split[part.key])} ${part.label}`).join(", ");
  return (
    <div>
      <div className="gpu-bar" role="img" aria-label={`GPUs: ${text}`}>
        {PARTS.map((part) =>
          split[part.key] > 0 ? (
            <span
              key={part.key}
              className={part.className}
              style={{ width: `${(100 * split[part.key]) / Math.max(1, totalGpus)}%` }}
            />
          ) : null,
        )}
      </div>
      <ul className="legend">
        {PARTS.map((part) => (
          <li key={part.key}>
            <span className={`swatch ${part.className}`} aria-hidden="true" />
            {formatInteger(split[part.key])} {part.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
