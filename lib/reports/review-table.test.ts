import { describe, expect, it } from "vitest";
import { reviewCsv } from "./review-csv";
import { findReviewFocus, focusFirst, focusNoteOf, jobClassesOf, reviewRows } from "./review-table";

const row = (id: string, parentId: string | null) => ({ id, parentId });
const TREE = [
  row("root", null),
  row("lang", "root"),
  row("lang/a", "lang"),
  row("vision", "root"),
  row("vision/x", "vision"),
  row("vision/y", "vision"),
  row("robotics", "root"),
];
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("focusFirst", () => {
  it("brings the branches holding a focus node first, at every level, keeping other order", () => {
    expect(ids(focusFirst(TREE, new Set(["vision/y"])))).toEqual([
      "root",
      "vision",
      "vision/y",
      "vision/x",
      "lang",
      "lang/a",
      "robotics",
    ]);
    expect(ids(focusFirst(TREE, new Set(["robotics", "lang/a"])))).toEqual([
      "root",
      "lang",
      "lang/a",
      "robotics",
      "vision",
      "vision/x",
      "vision/y",
    ]);
    expect(ids(focusFirst(TREE, new Set()))).toEqual(ids(TREE));
  });
});

describe("findReviewFocus and focusNoteOf", () => {
  it("marks the highest branch a lead leads, and members' budgets outside it", () => {
    const focus = findReviewFocus(TREE, ["lang", "lang/a", "robotics"], ["lang/a", "vision/x"]);
    expect(focus).toEqual({ leadTops: ["lang", "robotics"], memberIds: ["vision/x"] });
    expect(focusNoteOf(focus)).toBe("Your branches and your budget come first.");
    expect(focusNoteOf(findReviewFocus(TREE, ["vision"], []))).toBe("Your branch comes first.");
  });

  it("says nothing of a branch to a researcher who leads none: their budgets, or nothing", () => {
    expect(focusNoteOf(findReviewFocus(TREE, [], ["vision/x"]))).toBe("Your budget comes first.");
    expect(focusNoteOf(findReviewFocus(TREE, [], ["vision/x", "lang/a"]))).toBe(
      "Your budgets come first.",
    );
    // Leads and memberships of budgets the review does not show mark nothing.
    expect(findReviewFocus(TREE, ["gone"], ["gone/leaf"])).toEqual({
      leadTops: [],
      memberIds: [],
    });
    expect(focusNoteOf(findReviewFocus(TREE, ["gone"], ["gone/leaf"]))).toBeNull();
    expect(focusNoteOf(findReviewFocus(TREE, [], []))).toBeNull();
  });
});

const NODE = {
  name: "lab",
  isLeaf: false,
  effectiveShare: 1,
  demandGpuHours: 9,
  entitledGpuHours: 4,
  workConservingGpuHours: 4.5,
  receivedAllocatedGpuHours: 3,
  receivedUnallocatedGpuHours: 1,
  receivedGpuHours: 4,
  fulfilment: 1,
  hourlyFulfilment: 0.75,
};

describe("reviewRows and reviewCsv", () => {
  const rows = reviewRows(
    {
      nodes: [
        { ...NODE, id: "r", path: "", parentId: null },
        { ...NODE, id: "a", path: "lang/a,b", name: "a,b", parentId: "l", isLeaf: true },
        {
          ...NODE,
          id: "z",
          path: "old",
          name: "old",
          parentId: "r",
          fulfilment: null,
          hourlyFulfilment: null,
        },
      ],
    },
    {
      a: {
        waits: [{ jobClass: "training", jobs: 2, waitP50Sec: 30.4, waitP90Sec: 600 }],
        preemptions: 2,
      },
      r: { waits: [], preemptions: 2 },
    },
    new Set(["r", "a"]),
  );

  it("joins depth, preemptions, waits and whether the node still exists", () => {
    expect(rows.map((r) => [r.depth, r.preemptions, r.isLive])).toEqual([
      [0, 2, true],
      [2, 2, true],
      [1, 0, false],
    ]);
    expect(rows[0]).not.toHaveProperty("demandGpuHours");
    expect(
      jobClassesOf([
        { waits: { zeta: {} as never, interactive: {} as never, debug: {} as never } },
      ]),
    ).toEqual(["debug", "training", "interactive", "zeta"]);
    // A period without jobs has the same columns as one with debug and training jobs.
    expect(jobClassesOf([{ waits: {} }])).toEqual(["debug", "training"]);
  });

  it("writes one CSV line per node with a column trio per job class", () => {
    const lines = reviewCsv(rows).split("\r\n");
    expect(lines[0]).toBe(
      "path,name,depth,is_leaf,effective_share,entitled_gpu_hours,work_conserving_gpu_hours," +
        "received_gpu_hours,received_allocated_gpu_hours,received_unallocated_gpu_hours," +
        "fulfilment,hourly_fulfilment,preemptions,debug_jobs,debug_wait_p50_sec," +
        "debug_wait_p90_sec,training_jobs,training_wait_p50_sec,training_wait_p90_sec",
    );
    expect(lines[1]).toBe(",lab,0,false,1,4,4.5,4,3,1,1,0.75,2,0,,,0,,");
    expect(lines[2]).toBe('"lang/a,b","a,b",2,true,1,4,4.5,4,3,1,1,0.75,2,0,,,2,30,600');
    expect(lines[3]).toBe("old,old,1,false,1,4,4.5,4,3,1,,,0,0,,,0,,");
    expect(lines[4]).toBe("");
  });
});
