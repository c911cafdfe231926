/**
 * A binary min-heap under a strict "comes before" test. push and pop are O(log n).
 *
 * @example
 * const heap = createBinaryHeap<number>((a, b) => a < b);
 * heap.push(3); heap.push(1); heap.pop(); // 1
 */
export type BinaryHeap<T> = {
  push(item: T): void;
  /** The first item, removed; undefined when empty. */
  pop(): T | undefined;
  peek(): T | undefined;
  /** Removes every item, so the heap can be reused. */
  clear(): void;
  readonly size: number;
};

/** Creates an empty {@link BinaryHeap} ordered by `isBefore`. */
export function createBinaryHeap<T>(isBefore: (a: T, b: T) => boolean): BinaryHeap<T> {
  const items: T[] = [];
  function swap(i: number, j: number): void {
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return {
    push(item) {
      items.push(item);
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!isBefore(items[i] as T, items[parent] as T)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop() {
      const top = items[0];
      if (top === undefined) return undefined;
      const last = items.pop() as T;
      if (items.length > 0) {
        items[0] = last;
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          const right = left + 1;
          let best = i;
          if (left < items.length && isBefore(items[left] as T, items[best] as T)) best = left;
          if (right < items.length && isBefore(items[right] as T, items[best] as T)) best = right;
          if (best === i) break;
          swap(i, best);
          i = best;
        }
      }
      return top;
    },
    peek() {
      return items[0];
    },
    clear() {
      items.length = 0;
    },
    get size() {
      return items.length;
    },
  };
}
