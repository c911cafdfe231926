/**
 * Which columns of a results row get the "better" mark: those holding the best value, unless
 * fewer than two have a value or every column reads the same as shown (20 h against 20 h is a
 * tie, whatever the seconds behind them).
 *
 * @example markBetter([71_800, 70_853], ["20 h", "20 h"], "lower") // [false, false]
 */
export function markBetter(
  values: readonly number[],
  shown: readonly string[],
  better: "higher" | "lower" | undefined,
): boolean[] {
  const finite = values.filter(Number.isFinite);
  const isTie =
    better === undefined ||
    finite.length < 2 ||
    finite.every((value) => value === finite[0]) ||
    shown.every((text) => text === shown[0]);
  if (isTie) return values.map(() => false);
  const best = better === "lower" ? Math.min(...finite) : Math.max(...finite);
  return values.map((value) => value === best);
}
