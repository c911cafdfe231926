import { describe, expect, it } from "vitest";
import { parseCommandArgs } from "./args";

const OPTIONS = {
  cluster: { type: "string", short: "M" },
  json: { type: "boolean" },
} as const;

function usageMessage(argv: string[]): string {
  try {
    parseCommandArgs("sshare", argv, OPTIONS);
  } catch (error) {
    return (error as Error).message;
  }
  return "(parsed)";
}

describe("parseCommandArgs", () => {
  it("names a missing value by the long flag, even for a flag with a short form", () => {
    expect(usageMessage(["--cluster"])).toBe(
      "sshare: option --cluster needs a value (see allot sshare --help)",
    );
    expect(usageMessage(["-M"])).toBe(
      "sshare: option --cluster needs a value (see allot sshare --help)",
    );
  });

  it("says a boolean flag given a value takes none, rather than that it needs one", () => {
    expect(usageMessage(["--json=yes"])).toBe(
      "sshare: option --json takes no value (see allot sshare --help)",
    );
    expect(usageMessage(["--help=1"])).toBe(
      "sshare: option --help takes no value (see allot sshare --help)",
    );
  });

  it("names an unknown option as given", () => {
    expect(usageMessage(["--bogus"])).toBe(
      "sshare: unknown option --bogus (see allot sshare --help)",
    );
  });
});
