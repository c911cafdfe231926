import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { MAIN_PAGES, openMainPage } from "./main-pages";

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/** One violation per paragraph: rule, impact, what it means, and each element with the fix. */
function describe(violations: Violation[]): string {
  return violations
    .map((violation) =>
      [
        `${violation.impact}: ${violation.id} - ${violation.help} (${violation.helpUrl})`,
        ...violation.nodes.map(
          (node) =>
            `  at ${node.target.join(" ")}\n    ${node.failureSummary?.replace(/\n/g, "\n    ")}`,
        ),
      ].join("\n"),
    )
    .join("\n\n");
}

// #35: axe finds no serious or critical problem on any main page, in the state people use it.
for (const main of MAIN_PAGES) {
  test(`axe: ${main.name} has no serious or critical violations`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await openMainPage(page, main);
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(serious, describe(serious)).toEqual([]);
  });
}
