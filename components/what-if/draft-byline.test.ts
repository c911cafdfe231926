import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DraftByline } from "./draft-byline";

describe("DraftByline", () => {
  it("names the clock of the draft's time: real time, as the what-if list does", () => {
    const draft = {
      authorName: "Ada Lovelace",
      createdAt: "2026-11-30T11:38:34.000Z",
      basedOnVersion: 4,
      reason: "more for eval",
    };
    expect(renderToStaticMarkup(createElement(DraftByline, { draft }))).toBe(
      '<p class="muted">By Ada Lovelace, 2026-11-30 11:38 UTC (real time), from version 4: “more for eval”</p>',
    );
  });
});
