import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { parseExecutorEvents } from "./executor";

describe("executor events", () => {
  it("accepts one event or a batch, in order", () => {
    const started = { id: "e1", kind: "job.started", runId: "r1" };
    expect(parseExecutorEvents(started)).toEqual([started]);
    const drain = { id: "e2", kind: "node.draining", node: 3 };
    expect(parseExecutorEvents({ events: [started, drain] })).toEqual([started, drain]);
  });

  it("refuses unknown kinds, missing ids, negative nodes and empty batches with field paths", () => {
    const paths = (body: unknown) => {
      try {
        parseExecutorEvents(body);
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ZodError);
        return (error as ZodError).issues.map((issue) => issue.path.join("."));
      }
    };
    expect(paths({ id: "e", kind: "job.exploded", runId: "r" })).toEqual(["kind"]);
    expect(paths({ kind: "job.started", runId: "r" })).toEqual(["id"]);
    expect(paths({ events: [{ id: "e", kind: "node.down", node: -1 }] })).toEqual([
      "events.0.node",
    ]);
    expect(paths({ events: [] })).toEqual(["events"]);
  });
});
