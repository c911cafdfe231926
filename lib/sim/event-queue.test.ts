import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEventQueue, EVENT_ORDER, type EventKind, type SimEvent } from "./event-queue";

describe("createEventQueue", () => {
  it("pops by time, then kind order, then insertion order", () => {
    const queue = createEventQueue();
    queue.push({ atSec: 10, kind: "wake", ref: 1 });
    queue.push({ atSec: 10, kind: "arrival", ref: 2 });
    queue.push({ atSec: 5, kind: "arrival", ref: 3 });
    queue.push({ atSec: 10, kind: "completion", ref: 4 });
    queue.push({ atSec: 10, kind: "arrival", ref: 5 });
    const refs: number[] = [];
    for (let event = queue.pop(); event; event = queue.pop()) refs.push(event.ref);
    expect(refs).toEqual([3, 4, 2, 5, 1]);
  });

  it("reports Infinity and undefined when empty", () => {
    const queue = createEventQueue();
    expect(queue.peekSec()).toBe(Infinity);
    expect(queue.pop()).toBeUndefined();
    expect(queue.size).toBe(0);
  });

  it("always pops in sorted order (property)", () => {
    const kinds = Object.keys(EVENT_ORDER) as EventKind[];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ atSec: fc.integer({ min: 0, max: 50 }), kind: fc.constantFrom(...kinds) }),
        ),
        (items) => {
          const queue = createEventQueue();
          items.forEach((item, ref) => queue.push({ ...item, ref }));
          const popped: SimEvent[] = [];
          for (let event = queue.pop(); event; event = queue.pop()) {
            popped.push({ atSec: event.atSec, kind: event.kind, ref: event.ref });
          }
          const expected = items
            .map((item, ref) => ({ ...item, ref }))
            .sort(
              (a, b) =>
                a.atSec - b.atSec || EVENT_ORDER[a.kind] - EVENT_ORDER[b.kind] || a.ref - b.ref,
            );
          expect(popped).toEqual(expected);
        },
      ),
    );
  });
});
