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

const KIND_BY_RANK = Object.fromEntries(
  Object.entries(EVENT_ORDER).map(([kind, rank]) => [rank, kind as EventKind]),
) as Record<number, EventKind>;

/**
 * A min-heap of events ordered by time, then {@link EVENT_ORDER}, then insertion order, so that
 * ties always resolve the same way. push and pop are O(log n). Events are kept in typed arrays,
 * not one object each, so a year of a fleet's runs (millions of events) costs the garbage
 * collector nothing; `pop` returns a fresh object.
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

function swapIn(array: Float64Array | Uint8Array, i: number, j: number): void {
  const held = array[i] as number;
  array[i] = array[j] as number;
  array[j] = held;
}

/** Creates an empty {@link EventQueue}. */
export function createEventQueue(): EventQueue {
  // Heap slot i holds one event: its time, kind order (rank), insertion number and ref.
  let times = new Float64Array(64);
  let ranks = new Uint8Array(64);
  let seqs = new Float64Array(64);
  let refs = new Float64Array(64);
  let size = 0;
  let seq = 0;

  function isBefore(i: number, j: number): boolean {
    const a = times[i] as number;
    const b = times[j] as number;
    if (a !== b) return a < b;
    if (ranks[i] !== ranks[j]) return (ranks[i] as number) < (ranks[j] as number);
    return (seqs[i] as number) < (seqs[j] as number);
  }
  function swap(i: number, j: number): void {
    swapIn(times, i, j);
    swapIn(ranks, i, j);
    swapIn(seqs, i, j);
    swapIn(refs, i, j);
  }
  function grow(): void {
    const grown = <T extends Float64Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    const capacity = times.length * 2;
    times = grown(times, new Float64Array(capacity));
    ranks = grown(ranks, new Uint8Array(capacity));
    seqs = grown(seqs, new Float64Array(capacity));
    refs = grown(refs, new Float64Array(capacity));
  }

  return {
    push(event) {
      if (size === times.length) grow();
      let i = size++;
      times[i] = event.atSec;
      ranks[i] = EVENT_ORDER[event.kind];
      seqs[i] = seq++;
      refs[i] = event.ref;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!isBefore(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop() {
      if (size === 0) return undefined;
      const top: SimEvent = {
        atSec: times[0] as number,
        kind: KIND_BY_RANK[ranks[0] as number] as EventKind,
        ref: refs[0] as number,
      };
      size--;
      if (size > 0) {
        swap(0, size);
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          const right = left + 1;
          let best = i;
          if (left < size && isBefore(left, best)) best = left;
          if (right < size && isBefore(right, best)) best = right;
          if (best === i) break;
          swap(i, best);
          i = best;
        }
      }
      return top;
    },
    peekSec() {
      return size > 0 ? (times[0] as number) : Infinity;
    },
    get size() {
      return size;
    },
  };
}
