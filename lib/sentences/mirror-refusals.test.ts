import { describe, expect, it } from "vitest";
import {
  minRuntimeRefusal,
  parentAccountRefusal,
  tooManyGpusRefusal,
  unknownAccountRefusal,
  unplaceableRefusal,
} from "./mirror-refusals";

describe("mirror refusals", () => {
  it("name the account, and for a parent account one of its leaves", () => {
    expect(unknownAccountRefusal("nosuch")).toBe(
      'Account "nosuch" is not a budget in Allot; ask your lead which account to charge.',
    );
    expect(parentAccountRefusal("language", "language.lm-pretrain")).toBe(
      'Account "language" has sub-budgets; charge one of its leaves (e.g. language.lm-pretrain).',
    );
  });

  it("tell a size over the cluster from one no placement takes", () => {
    expect(tooManyGpusRefusal(24, "h100", 16)).toBe(
      "It asks for 24 GPUs; h100 has 16, so it could never run.",
    );
    expect(unplaceableRefusal(12, "h100", 8)).toBe(
      "12 GPUs cannot be placed on h100's nodes of 8 GPUs; jobs over one node take whole nodes.",
    );
  });

  it("write a minimum runtime in whole hours, else in minutes", () => {
    expect(minRuntimeRefusal(9 * 3600, "h100", 8 * 3600)).toBe(
      "Its minimum runtime (--time-min) of 9 h is above h100's maximum of 8 h; resubmit with a shorter one.",
    );
    expect(minRuntimeRefusal(8 * 3600 + 90, "h100", 8 * 3600)).toBe(
      "Its minimum runtime (--time-min) of 482 min is above h100's maximum of 8 h; resubmit with a shorter one.",
    );
  });
});
