/**
 * Which columns of a results row get the "better" mark: those that read as the best value
 * does, unless fewer than two columns have a value or all of those read the same as shown
 * (20 h against 20 h is a tie, whatever the seconds behind them).
 *
 * @example markBetter([71_800, 70_853], ["20 h", "20 h"], "lower") // [false, false]
 */
export function markBetter(
  values: readonly number[],
  shown: readonly string[],
  better: "higher" | "lower" | undefined,
): boolean[] {
  const columns = values.flatMap((value, i) => (Number.isFinite(value) ? [i] : []));
  const none = values.map(() => false);
  if (better === undefined || columns.length < 2) return none;
  if (columns.every((i) => shown[i] === shown[columns[0]!])) return none;
  const best = columns.reduce((at, i) =>
    better === "lower" ? (values[i]! < values[at]! ? i : at) : values[i]! > values[at]! ? i : at,
  );
  // Every column that reads as the best does, so equal-looking figures are marked alike.
  return values.map((value, i) => Number.isFinite(value) && shown[i] === shown[best]);
}
