import { describe, expect, it } from "vitest";
import { captureLogs } from "../../testing/log-capture";
import { keepRootedRows, UnusableTreeError } from "./rooted-rows";

const row = (id: string, parentId: string | null) => ({ id, parentId, name: id, weight: 1 });

describe("keepRootedRows", () => {
  it("keeps a whole tree as it is, in its order", () => {
    const rows = [row("lab", null), row("b", "lab"), row("a", "lab"), row("a1", "a")];
    expect(keepRootedRows(rows)).toEqual(rows);
  });

  it("leaves out a live budget whose parent is not live, with its subtree, and logs them", () => {
    const log = captureLogs();
    const rows = [row("lab", null), row("a", "lab"), row("orphan", "gone"), row("o1", "orphan")];
    expect(keepRootedRows(rows).map((kept) => kept.id)).toEqual(["lab", "a"]);
    expect(log.entries()).toEqual([
      expect.objectContaining({
        level: "error",
        budgets: ["orphan", "o1"],
        msg: expect.stringContaining("2 live budgets below a removed one") as unknown,
      }),
    ]);
    log.stop();
  });

  it("refuses a tree with no root or with two roots as unusable (503)", () => {
    expect(() => keepRootedRows([row("a", "gone")])).toThrow(UnusableTreeError);
    expect(() => keepRootedRows([row("lab", null), row("other", null)])).toThrow(/2 roots/);
    const thrown = (() => {
      try {
        keepRootedRows([]);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(UnusableTreeError);
    expect((thrown as UnusableTreeError).status).toBe(503);
  });

  it("tells a site with no budget yet that its first admin makes the root, not to repair it", () => {
    expect(() => keepRootedRows([])).toThrow(
      "The budget tree is empty: its root is made when the first admin (ALLOT_ADMINS) signs in.",
    );
    expect(() => keepRootedRows([row("a", "gone")])).toThrow(
      "The stored budget tree cannot be used (0 roots); an admin must repair it.",
    );
  });
});
