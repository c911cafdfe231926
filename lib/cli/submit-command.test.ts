import { describe, expect, it } from "vitest";
import { ApiRequestError } from "./api-errors";
import { parseCommandArgs } from "./args";
import { UsageError } from "./io";
import { parseSubmitArgs, pickBudget, refusedAsUsage } from "./submit-command";

const OPTIONS = {
  cluster: { type: "string", short: "M" },
  name: { type: "string", short: "J" },
  gpus: { type: "string", short: "G" },
  "min-runtime": { type: "string" },
  budget: { type: "string", short: "A" },
  priority: { type: "string" },
  resumable: { type: "boolean" },
  "no-resumable": { type: "boolean" },
} as const;

const parse = (argv: string[]) => parseSubmitArgs(parseCommandArgs("submit", argv, OPTIONS));
const BASE = ["-M", "h100", "-J", "train", "-G", "8", "--min-runtime", "2h"];

const me = (paths: string[]) => ({
  id: "u1",
  name: "Riley Chen",
  email: "riley@example.org",
  isAdmin: false,
  budgets: paths.map((path) => ({ id: `id-${path}`, path })),
});

describe("submit's flags", () => {
  it("read like sbatch's, with the API's defaults", () => {
    expect(parse(BASE)).toEqual({
      cluster: "h100",
      budget: null,
      name: "train",
      gpus: 8,
      minRuntimeSec: 7200,
      priority: "normal",
      isResumable: true,
    });
    expect(
      parse([
        ...BASE,
        "-A",
        "lang/eval",
        "--priority",
        "high",
        "--no-resumable",
        "--min-runtime",
        "0",
      ]),
    ).toMatchObject({
      budget: "lang/eval",
      priority: "high",
      isResumable: false,
      minRuntimeSec: 0,
    });
  });

  it("are refused with the flag and the reason", () => {
    const refusal = (argv: string[]) => {
      try {
        parse(argv);
      } catch (error) {
        return (error as UsageError).message;
      }
      return "accepted";
    };
    expect(refusal(["-M", "h100", "-G", "8", "--min-runtime", "2h"])).toBe(
      "submit: --name is required",
    );
    // Every missing flag at once, in the usage line's order.
    expect(refusal(["-J", "train"])).toBe(
      "submit: --cluster, --gpus and --min-runtime are required",
    );
    expect(refusal([])).toBe("submit: --cluster, --name, --gpus and --min-runtime are required");
    expect(refusal([...BASE, "-G", "1.5"])).toBe(
      'submit: --gpus must be a whole number from 1 to 2147483647, got "1.5"',
    );
    expect(refusal([...BASE, "--min-runtime", "90"])).toBe(
      'submit: --min-runtime "90" needs a unit (e.g. 90m or 90s): sbatch would read minutes',
    );
    expect(refusal([...BASE, "--min-runtime", "soon"])).toBe(
      'submit: --min-runtime "soon" is not a duration (e.g. 90s, 15m, 8h, 7d, 1h30m, 1:30:00)',
    );
    expect(refusal([...BASE, "--priority", "urgent"])).toBe(
      'submit: --priority must be one of low, normal, high, got "urgent"',
    );
    expect(refusal([...BASE, "--resumable", "--no-resumable"])).toBe(
      "submit: --resumable and --no-resumable contradict each other",
    );
  });
});

describe("pickBudget", () => {
  it("takes an id, a path or a unique leaf name, or the only budget", () => {
    const two = me(["lang/eval", "vision/riley"]);
    expect(pickBudget("id-lang/eval", two)).toBe("id-lang/eval");
    expect(pickBudget("vision/riley", two)).toBe("id-vision/riley");
    expect(pickBudget("riley", two)).toBe("id-vision/riley");
    expect(pickBudget(null, me(["lang/eval"]))).toBe("id-lang/eval");
  });

  it("says which budgets the caller may charge when it cannot choose", () => {
    const two = me(["lang/eval", "vision/eval"]);
    expect(() => pickBudget(null, two)).toThrow(
      new UsageError("submit: --budget is required: you may charge lang/eval, vision/eval"),
    );
    expect(() => pickBudget("eval", two)).toThrow(
      new UsageError(
        'submit: --budget "eval" names more than one of your budgets; you may charge lang/eval, vision/eval',
      ),
    );
    expect(() => pickBudget(null, me([]))).toThrow(
      new UsageError("submit: you may charge no budget yet; ask your project lead to add you"),
    );
  });
});

describe("refusedAsUsage", () => {
  it("names the flags of the fields the server refused", () => {
    const error = new ApiRequestError(422, "validation_failed", "The request has invalid fields.", [
      { path: "gpus", message: "h100 has 1024 GPUs." },
      { path: "minRuntimeSec", message: "At most 8 h." },
    ]);
    expect(refusedAsUsage("submit", error).message).toBe(
      "submit: --gpus: h100 has 1024 GPUs.; --min-runtime: At most 8 h.",
    );
  });
});
