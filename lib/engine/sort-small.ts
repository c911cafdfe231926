/**
 * Sorts a short list in place, stably, as `Array.prototype.sort` would with the same comparator:
 * an insertion sort, which allocates nothing (V8's sort allocates a work array per call, and the
 * engine sorts lists of a few budgets many times per pass).
 *
 * @example sortSmall([3, 1, 2], (a, b) => a - b) // [1, 2, 3]
 */
export function sortSmall<T>(list: T[], compare: (a: T, b: T) => number): T[] {
  for (let i = 1; i < list.length; i += 1) {
    const item = list[i]!;
    let at = i;
    while (at > 0 && compare(list[at - 1]!, item) > 0) {
      list[at] = list[at - 1]!;
      at -= 1;
    }
    list[at] = item;
  }
  return list;
}
