import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { isPathParam, parsePathParams } from "./params";

function refusalOf(params: Record<string, string>) {
  try {
    parsePathParams(params);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const refusal = error as AppError;
    return { status: refusal.status, issues: refusal.issues };
  }
}

describe("parsePathParams", () => {
  it("returns the params untouched when each is 1-100 characters without controls", () => {
    const params = { id: "cm4abc", runId: "x".repeat(100), name: "h100 b" };
    expect(parsePathParams(params)).toBe(params);
  });

  it("answers 404 naming each bad param: NUL, empty, 101 characters, a lone surrogate", () => {
    expect(
      refusalOf({ id: "cm\u00004", runId: "", name: "x".repeat(101), nodeId: "\ud800" }),
    ).toEqual({
      status: 404,
      issues: [
        {
          path: "params.id",
          message:
            "Remove the control character U+0000 at position 3: names and ids cannot contain control characters.",
        },
        { path: "params.runId", message: "The path has an empty id." },
        { path: "params.name", message: "An id in the path has at most 100 characters." },
        {
          path: "params.nodeId",
          message:
            "Remove the broken character at position 1 (a lone UTF-16 surrogate): send valid Unicode text.",
        },
      ],
    });
  });

  it("does not trim: a space or a tab around an id is not the id", () => {
    expect(parsePathParams({ id: " cm4abc " })).toEqual({ id: " cm4abc " });
    expect(refusalOf({ id: "cm4abc\t" })?.status).toBe(404);
  });
});

describe("isPathParam", () => {
  it("is the same rule as a boolean, for pages", () => {
    expect([isPathParam("h100"), isPathParam(""), isPathParam("a\nb")]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
