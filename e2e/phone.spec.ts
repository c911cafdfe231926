import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { sameOrigin, signInAs, treeNodes, waitForHydration } from "./fixtures";

// A phone: 390 px wide, as the audit of the queue and the budgets page measured.
const PHONE = { width: 390, height: 844 };

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(PHONE);
});

/** The element's box on the page, failing the test when it is not rendered. */
async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, "rendered").not.toBeNull();
  return box!;
}

/** Submits a job to b300 through the API as the signed-in person; returns its id. */
async function submitJob(request: APIRequestContext, budgetId: string, name: string, gpus: number) {
  const response = await request.post("/api/v1/jobs", {
    headers: sameOrigin(),
    data: {
      cluster: "b300",
      budgetId,
      name,
      gpus,
      minRuntimeSec: 2 * 3600,
      isResumable: true,
      priority: "normal",
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { job: { id: string } }).job.id;
}

/**
 * Riley's "<tag> fill", a protected 88-GPU run for all of b300, and "<tag> waits", 16 GPUs that
 * wait behind it; their ids, to cancel.
 */
async function submitFillAndWaiter(page: Page, tag: string): Promise<string[]> {
  const riley = (await treeNodes(page)).find(
    (node) => node.path === "language/lm-posttrain/riley",
  )!;
  return [
    await submitJob(page.request, riley.id, `${tag} fill`, 88),
    await submitJob(page.request, riley.id, `${tag} waits`, 16),
  ];
}

test("phone: why a pending job waits is a full-width line beside its job", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, "researcher");
  const tag = `phone${Date.now() % 100000}`;
  const ids = await submitFillAndWaiter(page, tag);
  try {
    await page.goto("/clusters/b300");
    await waitForHydration(page);
    const pending = page.getByRole("table", { name: "Pending jobs in queue order" });
    const row = pending.getByRole("row", { name: new RegExp(`${tag} waits`) });
    // The eighth cell: #, Budget, Rank, Usage, Priority, GPUs, Waiting, then why it waits.
    const reason = row.getByRole("cell").nth(7);
    await expect(reason).toContainText(/\w+ \w+ \w+/);
    await reason.scrollIntoViewIfNeeded();
    const reasonBox = await boxOf(reason);
    expect(reasonBox.x).toBeGreaterThanOrEqual(0);
    expect(reasonBox.x + reasonBox.width).toBeLessThanOrEqual(PHONE.width);
    expect(reasonBox.width).toBeGreaterThan(250);
    // The job's name stands in view with it: nothing scrolls sideways.
    await expect(row.getByRole("link", { name: `${tag} waits` })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    // In "Your jobs", a running job (the demo lab keeps some of riley's running) has no
    // expected start: its empty cell is not a line of its own.
    await page.goto("/queue");
    await waitForHydration(page);
    const mine = page.getByRole("table", { name: "Your waiting and running jobs" });
    const running = mine
      .getByRole("row")
      .filter({ has: page.locator(".pill-state-running") })
      .first();
    await expect(running).toBeVisible();
    // The label is drawn by CSS (::before), so it is the empty cell that must not be shown.
    await expect(running.locator("td").last()).toBeEmpty();
    await expect(running.locator("td").last()).toBeHidden();
  } finally {
    for (const id of ids.reverse()) {
      await page.request.post(`/api/v1/jobs/${id}/cancel`, { headers: sameOrigin(), data: {} });
    }
  }
});

/** What the page is wider than the phone by, in px (0 when nothing scrolls sideways). */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The links, buttons and fields on the page less than 24 px tall (WCAG 2.5.8), described. */
async function shortTargets(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("a, button, input, select, summary")]
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      // Laid out (not in a closed dialog) and not parked off-screen (the skip link).
      .filter(({ box }) => box.width > 0 && box.right > 0 && box.height < 24)
      .map(({ element, box }) => `${element.textContent?.trim()}: ${box.height.toFixed(1)} px`),
  );
}

test("phone: the jobs list is a block a job, sorts, and its targets are 24 px tall", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, "researcher");
  const tag = `phonejobs${Date.now() % 100000}`;
  const ids = await submitFillAndWaiter(page, tag);
  try {
    await page.goto(`/jobs?q=${tag}`);
    await waitForHydration(page);
    const table = page.getByRole("table", { name: "Jobs" });
    const row = table.getByRole("row", { name: new RegExp(`${tag} waits`) });
    // Each figure says what it is, on screen and aloud.
    await expect(
      row.getByRole("cell", { name: "Budget: language/lm-posttrain/riley" }),
    ).toBeVisible();
    await expect(row.getByRole("cell", { name: "GPUs: 16" })).toBeVisible();
    // The sixth cell: Cluster, Budget, GPUs, State, Place · rank, then why it waits (no Person
    // column: the list holds the researcher's own jobs).
    const reason = row.getByRole("cell").nth(5);
    await expect(reason).toContainText(/\w+ \w+ \w+/);
    await reason.scrollIntoViewIfNeeded();
    const rowBox = await boxOf(row);
    const reasonBox = await boxOf(reason);
    expect(reasonBox.x).toBeGreaterThanOrEqual(rowBox.x);
    expect(reasonBox.x + reasonBox.width).toBeLessThanOrEqual(
      Math.min(rowBox.x + rowBox.width, PHONE.width),
    );
    // Full width: the row's 0.2 rem padding on each side is all it leaves.
    expect(reasonBox.width).toBeGreaterThan(rowBox.width - 10);
    await expect(row.getByRole("link", { name: `${tag} waits` })).toBeInViewport();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    // The column headings stay on screen as sort links: a tap sorts, and so does Enter.
    const names = table.getByRole("rowheader");
    const byName = table.getByRole("link", { name: /^Job( [▲▼])? ?, sort/ });
    await byName.scrollIntoViewIfNeeded();
    const linkBox = await boxOf(byName);
    expect(linkBox.x).toBeGreaterThanOrEqual(0);
    expect(linkBox.x + linkBox.width).toBeLessThanOrEqual(PHONE.width);
    expect(linkBox.height).toBeGreaterThanOrEqual(24);
    await byName.click();
    await expect(page).toHaveURL(/sort=name/);
    await expect(table.getByRole("columnheader", { name: /^Job/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    await expect(names).toHaveText([`${tag} fill`, `${tag} waits`]);
    await byName.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/dir=desc/);
    await expect(names).toHaveText([`${tag} waits`, `${tag} fill`]);

    const clear = page.getByRole("link", { name: "Clear filters" });
    expect((await boxOf(clear)).height).toBeGreaterThanOrEqual(24);
    expect(await shortTargets(page)).toEqual([]);

    // A page in the middle of the seeded history: both pager links, and the table's links.
    await page.goto("/jobs?page=2");
    await waitForHydration(page);
    const pager = page.getByRole("navigation", { name: "Pages" });
    for (const link of [
      pager.getByRole("link", { name: "Previous page" }),
      pager.getByRole("link", { name: "Next page" }),
    ]) {
      await expect(link).toBeVisible();
      expect((await boxOf(link)).height).toBeGreaterThanOrEqual(24);
    }
    expect(await shortTargets(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    // A list that is empty offers to clear the filters, in a target as tall.
    await page.goto(`/jobs?q=${tag}-none`);
    await waitForHydration(page);
    await expect(page.getByRole("link", { name: "Clear filters" })).toHaveCount(2);
    expect(await shortTargets(page)).toEqual([]);
  } finally {
    for (const id of ids.reverse()) {
      await page.request.post(`/api/v1/jobs/${id}/cancel`, { headers: sameOrigin(), data: {} });
    }
  }
});

test("phone: a budget tapped in the tree brings its details into view and focus", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  await page.goto("/budgets");
  await waitForHydration(page);
  await page.getByRole("button", { name: "lm-eval", exact: true }).click();
  const heading = page.getByRole("heading", { name: "language/lm-eval", level: 2 });
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
  await expect(
    page.getByRole("complementary", { name: "language/lm-eval" }).getByRole("link", {
      name: "History",
    }),
  ).toBeVisible();
});

test("phone: the split editor shows each child's name, weight and Remove on screen", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  await page.goto("/budgets");
  await waitForHydration(page);
  await page.getByRole("button", { name: "language", exact: true }).click();
  await page.getByRole("button", { name: "Edit split of language" }).click();
  const editor = page.getByRole("region", { name: /Edit split of language$/ });
  const weight = editor.getByRole("spinbutton", { name: "Weight of lm-pretrain" });
  await expect(weight).toBeFocused();
  for (const control of [
    editor.getByRole("textbox", { name: "Name of lm-pretrain" }),
    weight,
    editor.getByRole("slider", { name: "Weight of lm-pretrain, slider" }),
    editor.getByRole("button", { name: "Remove lm-pretrain" }),
  ]) {
    await control.scrollIntoViewIfNeeded();
    const box = await boxOf(control);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  }

  // A refused weight: the focus goes to it and its message is its description.
  await weight.fill("-3");
  await editor.getByRole("button", { name: "Save split" }).click();
  await expect(weight).toBeFocused();
  await expect(weight).toHaveAttribute("aria-invalid", "true");
  await expect(weight).toHaveAccessibleDescription(/.+/);
  const message = editor.getByRole("alert").filter({ hasText: /./ }).first();
  const messageBox = await boxOf(message);
  expect(messageBox.x + messageBox.width).toBeLessThanOrEqual(PHONE.width);
});

test("phone: a leaf's editor has no empty tables before a budget is added", async ({ page }) => {
  await signInAs(page, "programLead");
  await page.goto("/budgets");
  await waitForHydration(page);
  await page.getByRole("button", { name: "lm-eval", exact: true }).click();
  await page.getByRole("button", { name: "Add budgets under lm-eval" }).click();
  const editor = page.getByRole("region", { name: /Edit split of language\/lm-eval$/ });
  await expect(editor.getByRole("button", { name: "Add a budget" })).toBeFocused();
  await expect(editor.getByRole("table")).toHaveCount(0);
  await expect(editor.getByRole("button", { name: /nodes? below/ })).toHaveCount(0);
  await editor.getByRole("button", { name: "Add a budget" }).click();
  await expect(editor.getByRole("table", { name: "Children and their new shares" })).toHaveCount(1);
});

test("scroll boxes: a named tab stop on a phone, none where the table fits", async ({ page }) => {
  await signInAs(page, "researcher");
  await page.goto("/");
  await waitForHydration(page);
  // On the phone the clusters' table is wider than its box: a region of its own name, focusable.
  const phoneBox = page.getByRole("region", { name: "Clusters, scrolls sideways" });
  await expect(phoneBox).toHaveAttribute("tabindex", "0");
  await expect(page.getByRole("region", { name: "Clusters", exact: true })).toHaveCount(1);
  // At laptop width it fits: no region, no tab stop that scrolls nothing.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByRole("region", { name: /scrolls/ })).toHaveCount(0);
  await expect(page.locator(".table-scroll[tabindex]")).toHaveCount(0);
});
