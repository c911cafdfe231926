import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { parseExecutorEvents } from "./executor";

/** The refusal of `body`: its message and issue paths, or null when it parses. */
function refusalOf(body: unknown): { message: string; paths: string[] } | null {
  try {
    parseExecutorEvents(body);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const refusal = error as AppError;
    expect(refusal.status).toBe(422);
    return { message: refusal.message, paths: (refusal.issues ?? []).map((issue) => issue.path) };
  }
}

describe("executor events", () => {
  it("accepts one event or a batch, in order", () => {
    const started = { id: "e1", kind: "job.started", runId: "r1" };
    expect(parseExecutorEvents(started)).toEqual([started]);
    const drain = { id: "e2", kind: "node.draining", node: 3 };
    expect(parseExecutorEvents({ events: [started, drain] })).toEqual([started, drain]);
  });

  it("refuses unknown kinds, missing ids, negative nodes and empty batches with field paths", () => {
    const paths = (body: unknown) => refusalOf(body)?.paths ?? [];
    expect(paths({ id: "e", kind: "job.exploded", runId: "r" })).toEqual(["kind"]);
    expect(paths({ kind: "job.started", runId: "r" })).toEqual(["id"]);
    expect(paths({ events: [{ id: "e", kind: "node.down", node: -1 }] })).toEqual([
      "events.0.node",
    ]);
    expect(paths({ events: [] })).toEqual(["events"]);
  });

  it("refuses a whole batch for one bad event, naming its index, id and field", () => {
    const good = { id: "e1", kind: "job.started", runId: "r1" };
    const refusal = refusalOf({
      events: [good, { id: "e2", kind: "job.failed", runId: "r2", message: "oom\u0000" }, good],
    });
    expect(refusal).toEqual({
      message:
        'Event 1 (id "e2") is invalid, so none of the batch was applied: fix or drop it and send the batch again.',
      paths: ["events.1.message"],
    });
    expect(refusalOf({ events: [good, { ...good, id: "e\u00003" }] })?.message).toMatch(
      /^Event 1 is invalid/,
    );
  });

  it("refuses ids starting admin-, kept for admins' node changes", () => {
    expect(refusalOf({ id: "admin-1", kind: "node.healthy", node: 0 })).toEqual({
      message: "The events are invalid; none was applied.",
      paths: ["id"],
    });
    expect(parseExecutorEvents({ id: "node-admin-1", kind: "node.healthy", node: 0 })).toHaveLength(
      1,
    );
  });

  it("refuses node indices past int4 and run ids over 200 characters; keeps newlines in messages", () => {
    expect(refusalOf({ id: "e", kind: "node.down", node: 2 ** 31 })?.paths).toEqual(["node"]);
    expect(refusalOf({ id: "e", kind: "job.started", runId: "r".repeat(201) })?.paths).toEqual([
      "runId",
    ]);
    expect(
      parseExecutorEvents({ id: "e", kind: "job.failed", runId: "r", message: "a\r\nb\tc" }),
    ).toEqual([{ id: "e", kind: "job.failed", runId: "r", message: "a\nb\tc" }]);
  });
});
