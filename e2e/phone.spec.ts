import { expect, test, type APIRequestContext, type Locator } from "@playwright/test";
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

test("phone: why a pending job waits is a full-width line beside its job", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, "researcher");
  // A protected run fills b300's 88 GPUs, so that a second job waits behind it.
  const tag = `phone${Date.now() % 100000}`;
  const riley = (await treeNodes(page)).find(
    (node) => node.path === "language/lm-posttrain/riley",
  )!;
  const ids = [
    await submitJob(page.request, riley.id, `${tag} fill`, 88),
    await submitJob(page.request, riley.id, `${tag} waits`, 16),
  ];
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
