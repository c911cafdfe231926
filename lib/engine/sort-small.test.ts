import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortSmall } from "./sort-small";

describe("sortSmall", () => {
  it("sorts as Array.prototype.sort does, ties kept in their order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: fc.nat(5), id: fc.nat() }), { maxLength: 40 }),
        (list) => {
          const byKey = (a: { key: number }, b: { key: number }): number => a.key - b.key;
          expect(sortSmall([...list], byKey)).toEqual([...list].sort(byKey));
        },
      ),
    );
  });
});
