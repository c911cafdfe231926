import { expect, test } from "@playwright/test";
import { signInAs, waitForHydration } from "./main-pages";

// A4 landscape less the print layout's 10 mm margins: 277 mm at 96 px to the inch.
const A4_LANDSCAPE_WIDTH_PX = Math.floor((277 / 25.4) * 96);

// #35: the review printed on A4 landscape keeps every column and prints the whole tree, folded
// branches included (on screen they stay folded).
test("the review's print layout has every column and every budget on A4 landscape", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, "programLead");
  await page.goto("/review");
  await waitForHydration(page);
  const table = page.getByRole("table", { name: "Entitled and received GPU-hours per budget" });
  const rowCount = await table.locator("tbody tr").count();
  const shownOnScreen = await table.locator("tbody tr:visible").count();
  expect(shownOnScreen).toBeLessThan(rowCount); // some branches start folded

  await page.setViewportSize({ width: A4_LANDSCAPE_WIDTH_PX, height: 760 });
  await page.emulateMedia({ media: "print" });
  await expect(table.locator("tbody tr:visible")).toHaveCount(rowCount);
  // A leaf of a branch folded on screen: another program's researcher.
  await expect(table.getByRole("row", { name: /^ivan\.ortiz / })).toBeVisible();
  // Every column is printed: no heading is hidden by the print styles. At print media the table
  // is still wider than the printable width (1149 px in 1046): Chromium's PDF shrinks it to fit.
  const headingCount = await table.locator("thead th").count();
  await expect(table.locator("thead th:visible")).toHaveCount(headingCount);
  await expect(table.getByRole("columnheader", { name: /^Preempt\u00ad?ions$/ })).toBeVisible();
  // The page's controls are not printed.
  await expect(page.getByRole("link", { name: "Download CSV" })).toBeHidden();
});
