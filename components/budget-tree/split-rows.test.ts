import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SplitRows } from "./split-rows";

function render(weightText: string, issues: { path: string; message: string }[]): string {
  return renderToStaticMarkup(
    createElement(SplitRows, {
      draft: [{ key: "a1", id: "a1", name: "lm-eval", weightText }],
      base: { children: [{ id: "a1", name: "lm-eval", weight: 1 }] },
      preview: [],
      clusters: [],
      issues,
      maxWeight: 1000,
      onChange: () => undefined,
    }),
  );
}

describe("SplitRows", () => {
  it("ties a refused weight's message to its box, as an alert", () => {
    const html = render("-1", [{ path: "children.0.weight", message: "A weight is at least 0." }]);
    expect(html).toContain(
      'aria-label="Weight of lm-eval" aria-invalid="true" aria-describedby="split-a1-weight-error"',
    );
    expect(html).toContain(
      '<p id="split-a1-weight-error" class="field-error" role="alert">A weight is at least 0.</p>',
    );
  });

  it("ties a refused name's message to its box", () => {
    const html = render("1", [{ path: "children.0.name", message: "Give the budget a name." }]);
    expect(html).toContain('aria-invalid="true" aria-describedby="split-a1-name-error"');
    expect(html).toContain(
      '<p id="split-a1-name-error" class="field-error" role="alert">Give the budget a name.</p>',
    );
  });

  it("names the slider apart from the number box", () => {
    const html = render("1", []);
    expect(html).toContain('aria-label="Weight of lm-eval, slider"');
    expect(html).not.toContain('aria-invalid="true"');
  });
});
