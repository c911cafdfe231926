// The axes of the per-budget GPU-hour bar charts (simulations and what-ifs), as props to spread
// on recharts' own components: recharts reads its children's types, so they cannot be wrapped.
import { formatGpuHours, formatInteger } from "@/lib/format";

/** A budget name under each bar, slanted so that long paths fit. */
export function budgetXAxisProps(angleDeg: number) {
  return {
    dataKey: "name",
    tick: { fontSize: 11 },
    interval: 0,
    angle: angleDeg,
    textAnchor: "end",
  } as const;
}

/** GPU-hours with thousands separators. */
export const GPU_HOURS_Y_AXIS_PROPS = {
  tick: { fontSize: 12 },
  width: 64,
  tickFormatter: (value: number) => formatInteger(value),
} as const;

/** A tooltip value in GPU-hours. */
export function formatGpuHoursTooltip(value: unknown): string {
  return formatGpuHours(Number(value));
}
