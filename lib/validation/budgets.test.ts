import { describe, expect, it } from "vitest";
import { zodIssues } from "../api/respond";
import { getSharpCutWarnings, getSplitWarnings, personSchema, setChildrenSchema } from "./budgets";

function issuesOf(body: unknown) {
  const result = setChildrenSchema.safeParse(body);
  return result.success ? [] : zodIssues(result.error);
}

const VALID = {
  version: 3,
  reason: "rebalance",
  children: [
    { id: "a", name: "lm-pretrain", weight: 5 },
    { name: "riley.chen", weight: 0.5 },
  ],
};

describe("setChildrenSchema", () => {
  it("accepts names with letters, digits, '.', '-', '_' and weights from 0 to 1,000,000", () => {
    expect(issuesOf(VALID)).toEqual([]);
    expect(issuesOf({ ...VALID, children: [{ name: "a_b-c.9", weight: 1_000_000 }] })).toEqual([]);
    expect(issuesOf({ ...VALID, children: [{ name: "x", weight: 0 }] })).toEqual([]);
  });

  it("names the field of each problem: children.2.weight, children.1.name, reason", () => {
    const issues = issuesOf({
      version: 3,
      reason: "  ",
      children: [
        { name: "ok", weight: 1 },
        { name: "has space", weight: 1 },
        { name: "neg", weight: -1 },
        { name: "big", weight: 1_000_001 },
        { name: "", weight: 1 },
        { name: "x".repeat(65), weight: 1 },
        { name: ".hidden", weight: 1 },
      ],
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      "reason",
      "children.1.name",
      "children.2.weight",
      "children.3.weight",
      "children.4.name",
      "children.5.name",
      "children.6.name",
    ]);
  });

  it("refuses unknown keys, in the body and in a child, naming where they are", () => {
    expect(issuesOf({ ...VALID, reasn: "typo" })).toEqual([
      { path: "(body)", message: 'Unrecognized key: "reasn"' },
    ]);
    const children = [{ name: "a", weight: 1, share: 0.5 }];
    expect(issuesOf({ ...VALID, children })).toEqual([
      { path: "children.0", message: 'Unrecognized key: "share"' },
    ]);
    expect(personSchema.safeParse({ email: "a@b.org", role: "lead" }).success).toBe(false);
  });

  it("names a missing or malformed children list in plain words, not zod's own", () => {
    const shape = 'an object { "name", "weight" }, plus "id" for an existing child';
    expect(issuesOf({ version: 3, reason: "rebalance" })).toEqual([
      {
        path: "children",
        message: `Required: a list of the children, each ${shape} (an empty list removes them all).`,
      },
    ]);
    expect(issuesOf({ ...VALID, children: "a,b" })).toEqual([
      { path: "children", message: `Must be a list of the children, each ${shape}.` },
    ]);
    expect(issuesOf({ ...VALID, children: [null] })).toEqual([
      { path: "children.0", message: `Each child is ${shape}.` },
    ]);
    expect(issuesOf(null)).toEqual([
      { path: "(body)", message: 'Send a JSON object: { "version", "reason", "children" }.' },
    ]);
  });

  it("names a bad child id: not text, empty, too long", () => {
    const leaveOut = "Give an existing child's id, or leave the id out for a new child.";
    const withId = (id: unknown) => ({ ...VALID, children: [{ id, name: "a", weight: 1 }] });
    expect(issuesOf(withId(7))).toEqual([{ path: "children.0.id", message: leaveOut }]);
    expect(issuesOf(withId(" "))).toEqual([{ path: "children.0.id", message: leaveOut }]);
    expect(issuesOf(withId("x".repeat(65)))).toEqual([
      { path: "children.0.id", message: "An id has at most 64 characters." },
    ]);
  });

  it("lets no zod default message through for bodies of the wrong shape", () => {
    const bodies: unknown[] = [
      {},
      [],
      "children",
      { version: "3", reason: 7, children: {} },
      { ...VALID, children: [1, "a", [], { id: null, name: null, weight: null }] },
    ];
    for (const body of bodies) {
      for (const issue of issuesOf(body)) {
        expect(issue.message).not.toMatch(/Invalid input|Too small|Too big|expected \w+/);
      }
    }
    for (const body of [null, {}, { email: 3 }]) {
      const result = personSchema.safeParse(body);
      const messages = result.success ? [] : zodIssues(result.error).map((i) => i.message);
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) expect(message).not.toMatch(/Invalid input|expected \w+/);
    }
  });

  it("refuses a weight above 0 but under 0.000001 (1e-320, a denormal); 0 and 0.000001 pass", () => {
    const children = [
      { name: "zero", weight: 0 },
      { name: "least", weight: 0.000001 },
      { name: "denormal", weight: 1e-320 },
      { name: "just-under", weight: 0.00000099 },
    ];
    const message = "A weight is 0 or at least 0.000001.";
    expect(issuesOf({ ...VALID, children })).toEqual([
      { path: "children.2.weight", message },
      { path: "children.3.weight", message },
    ]);
  });

  it("refuses infinite and non-numeric weights", () => {
    expect(issuesOf({ ...VALID, children: [{ name: "a", weight: Infinity }] })).toEqual([
      { path: "children.0.weight", message: expect.any(String) },
    ]);
    expect(issuesOf({ ...VALID, children: [{ name: "a", weight: "3" }] })[0]?.path).toBe(
      "children.0.weight",
    );
  });

  it("refuses sibling names that differ only in case, and a child listed twice", () => {
    const issues = issuesOf({
      ...VALID,
      children: [
        { id: "a", name: "Vision", weight: 1 },
        { name: "vision", weight: 1 },
        { id: "a", name: "other", weight: 1 },
      ],
    });
    expect(issues).toEqual([
      {
        path: "children.1.name",
        message: 'Another child is already named "Vision" (names differ only in case).',
      },
      { path: "children.2.id", message: "This child appears twice." },
    ]);
  });

  it("requires the version and a reason", () => {
    expect(issuesOf({ children: [] }).map((issue) => issue.path)).toEqual(["version", "reason"]);
  });
});

describe("getSplitWarnings", () => {
  it("warns when every child weighs 0, not for an empty list or one positive weight", () => {
    expect(getSplitWarnings([{ weight: 0 }, { weight: 0 }])).toHaveLength(1);
    expect(getSplitWarnings([])).toEqual([]);
    expect(getSplitWarnings([{ weight: 0 }, { weight: 2 }])).toEqual([]);
  });
});

describe("personSchema", () => {
  it("trims and lower-cases the email", () => {
    expect(personSchema.parse({ email: "  Riley@Allot.Example " })).toEqual({
      email: "riley@allot.example",
    });
  });
});

describe("getSharpCutWarnings", () => {
  const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;
  const before = [
    { id: "a", name: "pretrain", weight: 5 },
    { id: "b", name: "posttrain", weight: 3 },
    { id: "c", name: "eval", weight: 3 },
  ];

  it("names a budget whose part a weight typed too large cuts under a tenth", () => {
    const after = [{ ...before[0]!, weight: 1000 }, before[1]!, before[2]!];
    expect(getSharpCutWarnings(before, after, percent)).toEqual([
      "posttrain: its part falls from 27.27% to 0.30%, under a tenth; is a weight mistyped?",
      "eval: its part falls from 27.27% to 0.30%, under a tenth; is a weight mistyped?",
    ]);
  });

  it("says nothing of an ordinary change, of a weight set to 0, or of new budgets", () => {
    const doubled = [{ ...before[0]!, weight: 10 }, before[1]!, before[2]!];
    expect(getSharpCutWarnings(before, doubled, percent)).toEqual([]);
    const zeroed = [before[0]!, { ...before[1]!, weight: 0 }, before[2]!];
    expect(getSharpCutWarnings(before, zeroed, percent)).toEqual([]);
    const added = [...before, { name: "new", weight: 0.01 }];
    expect(getSharpCutWarnings(before, added, percent)).toEqual([]);
  });
});
