/**
 * What can happen in a simulation. At one moment, events are handled in this order (lower first):
 * completions free GPUs before health changes and arrivals are seen, and the scheduler's own
 * wake-ups come last.
 */
export const EVENT_ORDER = {
  completion: 0,
  nodeHealth: 1,
  arrival: 2,
  protectionEnd: 3,
  wake: 4,
} as const;

/** Kind of a simulation event. */
export type EventKind = keyof typeof EVENT_ORDER;

/** One event: a moment in seconds, a kind and the id it refers to (job, run or node event). */
export type SimEvent = { atSec: number; kind: EventKind; ref: number };

type Entry = SimEvent & { rank: number; seq: number };

/**
 * A min-heap of events ordered by time, then {@link EVENT_ORDER}, then insertion order, so that
 * ties always resolve the same way. push and pop are O(log n).
 *
 * @example
 * const queue = createEventQueue();
 * queue.push({ atSec: 60, kind: "arrival", ref: 0 });
 * queue.pop(); // { atSec: 60, kind: "arrival", ref: 0 }
 */
export type EventQueue = {
  push(event: SimEvent): void;
  /** The earliest event, removed; undefined when empty. */
  pop(): SimEvent | undefined;
  /** The earliest event's time in seconds, or Infinity when empty. */
  peekSec(): number;
  readonly size: number;
};

function isBefore(a: Entry, b: Entry): boolean {
  if (a.atSec !== b.atSec) return a.atSec < b.atSec;
  if (a.rank !== b.rank) return a.rank < b.rank;
  return a.seq < b.seq;
}

/** Creates an empty {@link EventQueue}. */
export function createEventQueue(): EventQueue {
  const heap: Entry[] = [];
  let seq = 0;
  function swap(i: number, j: number): void {
    const tmp = heap[i] as Entry;
    heap[i] = heap[j] as Entry;
    heap[j] = tmp;
  }
  return {
    push(event) {
      const { atSec, kind, ref } = event;
      heap.push({ atSec, kind, ref, rank: EVENT_ORDER[kind], seq: seq++ });
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!isBefore(heap[i] as Entry, heap[parent] as Entry)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop() {
      const top = heap[0];
      if (top === undefined) return undefined;
      const last = heap.pop() as Entry;
      if (heap.length > 0) {
        heap[0] = last;
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          const right = left + 1;
          let best = i;
          if (left < heap.length && isBefore(heap[left] as Entry, heap[best] as Entry)) best = left;
          if (right < heap.length && isBefore(heap[right] as Entry, heap[best] as Entry))
            best = right;
          if (best === i) break;
          swap(i, best);
          i = best;
        }
      }
      return top;
    },
    peekSec() {
      return heap[0]?.atSec ?? Infinity;
    },
    get size() {
      return heap.length;
    },
  };
}
