// Number formats shared by pages (en-US grouping; the UI's language is English).

const INTEGER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 0.3512 -> "35.1%" (one decimal below 10%, so small shares stay visible). */
export function formatPercent(fraction: number): string {
  const percent = fraction * 100;
  const digits = percent !== 0 && Math.abs(percent) < 10 ? 2 : 1;
  return `${percent.toFixed(digits)}%`;
}

/** 8584.8 -> "8,585". */
export function formatInteger(value: number): string {
  return INTEGER.format(value);
}

/** A weight as typed: no trailing zeros. */
export function formatWeight(weight: number): string {
  return Number.isInteger(weight) ? String(weight) : String(Number(weight.toFixed(4)));
}

const UTC_DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** "2026-11-30T11:38:34Z" -> "30 Nov 2026, 11:38 UTC": the same for every viewer. */
export function formatUtcDateTime(iso: string): string {
  return `${UTC_DATE_TIME.format(new Date(iso))} UTC`;
}
