import { expect, test, type Page } from "@playwright/test";
import { MAIN_PAGES, openMainPage } from "./main-pages";

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

/** The page's width against the window's, and what sticks out on the right (to say what to fix). */
function measurePage(page: Page) {
  return page.evaluate(() => {
    const wide = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      // Inside a scroll region only what escapes its clipping counts (absolutely placed).
      .filter(
        (element) =>
          !element.closest(".table-scroll") || getComputedStyle(element).position === "absolute",
      )
      .slice(-8)
      .map((element) => {
        const classes = element.getAttribute("class");
        const right = Math.round(element.getBoundingClientRect().right);
        return `${element.tagName.toLowerCase()}${classes ? `.${classes.replace(/ /g, ".")}` : ""} right=${right}`;
      });
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      wide,
    };
  });
}

/** The scroll regions whose content is wider than they are (their tables are cut off). */
function overflowingRegions(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".table-scroll")]
      .filter((region) => region.scrollWidth > region.clientWidth + 1)
      .map(
        (region) =>
          `${region.getAttribute("aria-label") ?? region.querySelector("caption")?.textContent ?? "a table"}: ${region.scrollWidth} > ${region.clientWidth} px`,
      ),
  );
}

// #35: no main page is wider than the window, on a desktop or a phone. A table wider than a phone
// scrolls inside its own region; the page itself never scrolls sideways.
for (const main of MAIN_PAGES) {
  for (const size of WIDTHS) {
    test(`width: ${main.name} fits ${size.width} px`, async ({ page }) => {
      test.setTimeout(150_000);
      await page.setViewportSize(size);
      await openMainPage(page, main);
      const { scrollWidth, innerWidth, wide } = await measurePage(page);
      expect(scrollWidth, `wider than the window: ${wide.join(", ")}`).toBeLessThanOrEqual(
        innerWidth,
      );
      // #35: at 1440 px the review's tables fit without their scroll bar. (The what-if result's
      // table, 1491 px in 1198, still scrolls there: not yet fixed.)
      if (size.width >= 1440 && main.name === "review") {
        expect(await overflowingRegions(page)).toEqual([]);
      }
    });
  }
}

// The budget tree at 1366 px (a common laptop): its last column, the leads, was cut off behind the
// scroll bar; the counts beside a branch's name now move under it instead.
test("width: the budget tree fits 1366 px without its scroll bar", async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const budgets = MAIN_PAGES.find((main) => main.name === "budgets with a leaf selected")!;
  await openMainPage(page, budgets);
  expect(await overflowingRegions(page)).toEqual([]);
});

// A long leaf name (robotics/embodied-agents) in a narrow name column wrapped away from its
// arrow's space at 1280 px: it stood 28 px left of its siblings, on a line of its own.
for (const width of [1280, 390]) {
  test(`width: every budget name stays beside its arrow at ${width} px`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height: 900 });
    const budgets = MAIN_PAGES.find((main) => main.name === "budgets with a leaf selected")!;
    await openMainPage(page, budgets);
    await page.getByRole("button", { name: "Expand all" }).click();
    const apart = await page.evaluate(() =>
      [...document.querySelectorAll(".tree-table tbody th")].flatMap((cell) => {
        const arrow = cell.querySelector(".tree-toggle, .tree-toggle-space");
        const name = cell.querySelector(".tree-select");
        if (!arrow || !name) return [];
        const middle = (element: Element) => {
          const box = element.getBoundingClientRect();
          return box.top + box.height / 2;
        };
        const gap = Math.abs(middle(arrow) - middle(name));
        return gap > 4 ? [`${name.textContent}: ${Math.round(gap)} px`] : [];
      }),
    );
    expect(apart).toEqual([]);
  });
}

// At 390 px the review's chart legends wrap to three lines; a fixed legend height let them run
// over the plot (and the share line's label over the legend). They are HTML above the plot now.
test("width: the review's chart legends stay above their plots at 390 px", async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openMainPage(
    page,
    MAIN_PAGES.find((main) => main.name === "review")!,
  );
  await expect(page.locator(".chart-card .chart-legend").first()).toBeVisible();
  const overlaps = await page.evaluate(() =>
    [...document.querySelectorAll(".chart-card")].flatMap((card) => {
      const chart = card.querySelector(".chart-box");
      const legend = card.querySelector(".chart-legend")?.getBoundingClientRect();
      if (!chart) return [];
      const plot = chart.querySelector(".recharts-cartesian-grid")?.getBoundingClientRect();
      const label = chart.querySelector(".recharts-reference-line .recharts-label");
      const labelTop = label?.getBoundingClientRect().top ?? Infinity;
      if (!legend || !plot) return [];
      const name = chart.getAttribute("aria-label")?.slice(0, 40) ?? "a chart";
      return legend.bottom > Math.min(plot.top, labelTop) + 1
        ? [
            `${name}: legend bottom ${Math.round(legend.bottom)} > ${Math.round(Math.min(plot.top, labelTop))}`,
          ]
        : [];
    }),
  );
  expect(overlaps).toEqual([]);
  // Names in the text colour: the series' orange and sky blue are about 2.3:1 on white.
  const legendColours = await page
    .locator(".chart-legend li")
    .evaluateAll((items) => [...new Set(items.map((item) => getComputedStyle(item).color))]);
  expect(legendColours).toEqual(["rgb(27, 31, 36)"]);
});
