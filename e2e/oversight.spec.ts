// Issue #35: cancel, drain and adopt ask first and say what will happen; drain and adopt need a
// reason; each leaves an entry in the job's, node's or tree's history. Executor tokens have
// their own page with a copy button and a last-used time; the split editor warns before adding
// budgets and moves focus where the work is.
import { expect, test, type Page } from "@playwright/test";
import { sameOrigin, signInAs, treeNodes, waitForHydration } from "./fixtures";

// Several sign-ins and API calls each, on a busy 2-core machine: more than the 30 s default.
test.describe.configure({ timeout: 90_000 });

const TIME = String.raw`(\d{4}-\d\d-\d\d )?\d\d:\d\d UTC`;

async function submit(page: Page, path: string, name: string, gpus: number): Promise<string> {
  const budgetId = (await treeNodes(page)).find((node) => node.path === path)!.id;
  const response = await page.request.post("/api/v1/jobs", {
    headers: sameOrigin(),
    data: {
      cluster: "b300",
      budgetId,
      name,
      gpus,
      minRuntimeSec: 3600,
      isResumable: true,
      priority: "normal",
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { job: { id: string } }).job.id;
}

test("a researcher cancels a job after a confirmation, with and without a reason, and the job's history says so", async ({
  page,
}) => {
  await signInAs(page, "researcher");
  const withReason = await submit(page, "language/lm-posttrain/riley", "e2e cancel with reason", 8);
  const without = await submit(page, "language/lm-posttrain/riley", "e2e cancel plain", 8);

  await page.goto(`/jobs/${withReason}`);
  await waitForHydration(page);
  const cancel = page.getByRole("button", { name: "Cancel e2e cancel with reason" });
  await cancel.click();
  const dialog = page.getByRole("dialog", {
    name: /^Cancel job e2e cancel with reason \(8 GPUs, /,
  });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(/Its run ends now|It leaves the queue and never starts/);
  // Escape closes it and changes nothing; focus goes back to the button.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(cancel).toBeFocused();
  await expect(page.getByRole("region", { name: "History" })).toHaveCount(0);

  await cancel.click();
  await expect(
    dialog.getByRole("textbox", { name: /Reason, kept in the job's history \(optional\)/ }),
  ).toBeFocused();
  await dialog.getByRole("textbox", { name: /Reason/ }).fill("wrong config");
  await dialog.getByRole("button", { name: "Cancel the job" }).click();
  const history = page.getByRole("region", { name: "History" });
  await expect(history).toContainText(
    new RegExp(`Cancelled by Riley Chen at ${TIME}: wrong config$`),
  );
  await expect(cancel).toHaveCount(0);

  await page.goto(`/jobs/${without}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Cancel e2e cancel plain" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel the job" }).click();
  await expect(page.getByRole("region", { name: "History" })).toContainText(
    new RegExp(`Cancelled by Riley Chen at ${TIME}\\.$`),
  );
});

test("an admin drains a node only with a reason, and the node's row and history say who and why", async ({
  page,
}) => {
  const NODE = 9;
  await signInAs(page, "admin");
  // The API refuses a drain without a reason, naming the field, and changes nothing.
  const refused = await page.request.post(`/api/v1/clusters/b300/nodes/${NODE}/health`, {
    headers: sameOrigin(),
    data: { health: "draining" },
  });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).error.issues).toEqual([
    {
      path: "reason",
      message: "Say why the node is drained (kept in its history, e.g. “firmware update”).",
    },
  ]);
  // A node the cluster does not have is not found, rather than a success that changed nothing.
  const unknown = await page.request.post("/api/v1/clusters/b300/nodes/999/health", {
    headers: sameOrigin(),
    data: { health: "draining", reason: "firmware update" },
  });
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.message).toBe("The cluster b300 has no node 999.");

  await page.goto("/clusters/b300/nodes");
  await waitForHydration(page);
  const row = page.getByRole("row", { name: new RegExp(`^${NODE} `) });
  await expect(row).toContainText("healthy");
  await row.getByRole("button", { name: `Drain node ${NODE}`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Drain node ${NODE}?` });
  await expect(dialog).toContainText(/No run is on it|preempted at once|empty by/);
  // Focus starts where the person has to write, not on a link in the description.
  const reason = dialog.getByRole("textbox", {
    name: /Reason, kept in the node's history \(required\)/,
  });
  await expect(reason).toBeFocused();
  await dialog.getByRole("button", { name: `Drain node ${NODE}` }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "Say why the node is drained (kept in its history, e.g. “firmware update”).",
  );
  await reason.fill("firmware update");
  await dialog.getByRole("button", { name: `Drain node ${NODE}` }).click();
  await expect(dialog).toBeHidden();

  await expect(row).toContainText(
    new RegExp(`draining · set by Ada Okafor at ${TIME}: firmware update`),
  );
  const history = page.getByRole("region", { name: "Node history" });
  await expect(history).toContainText(
    new RegExp(`Node ${NODE} set draining by Ada Okafor at ${TIME}: firmware update`),
  );
  // A drain a person started is not one "without a human".
  await expect(
    page.getByRole("region", { name: "Drains finished without a human" }),
  ).not.toContainText("Ada Okafor");

  await row.getByRole("button", { name: `Mark healthy node ${NODE}` }).click();
  await expect(history).toContainText(
    new RegExp(`Node ${NODE} set healthy by Ada Okafor at ${TIME}\\.`),
  );
  await expect(row).toContainText("healthy · set by Ada Okafor");
});

test("an admin adopts a lab-wide draft only with a reason, seeing the weights that change, and the history keeps it", async ({
  page,
}) => {
  await signInAs(page, "admin");
  const nodes = await treeNodes(page);
  const root = nodes.find((node) => node.parentId === null)!;
  const children = nodes.filter((node) => node.parentId === root.id);
  const [first] = children;
  const draft = await page.request.post(`/api/v1/budgets/${root.id}/drafts`, {
    headers: sameOrigin(),
    data: {
      version: root.version,
      reason: "e2e draft",
      children: children.map(({ id, name, weight }) => ({
        id,
        name,
        weight: id === first!.id ? weight + 2 : weight,
      })),
    },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  const draftId = ((await draft.json()) as { draft: { id: string } }).draft.id;
  const noReason = await page.request.post(`/api/v1/drafts/${draftId}/adopt`, {
    headers: sameOrigin(),
    data: {},
  });
  expect(noReason.status()).toBe(422);
  expect((await noReason.json()).error.issues[0].path).toBe("reason");

  await page.goto(`/budgets/${root.id}/drafts/${draftId}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Adopt this split" }).click();
  const dialog = page.getByRole("dialog", { name: `Adopt this split of ${root.name}?` });
  await expect(dialog.getByRole("listitem")).toHaveText([
    `${first!.name}: weight ${first!.weight} → ${first!.weight + 2}`,
  ]);
  await dialog.getByRole("button", { name: "Adopt the split" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "Say why this split is adopted (kept in the budget's history).",
  );
  await dialog.getByRole("textbox", { name: /Why this split/ }).fill("more for the first program");
  await dialog.getByRole("button", { name: "Adopt the split" }).click();
  await expect(page.getByRole("heading", { name: `History of ${root.name}` })).toBeVisible();
  await expect(
    page.getByText(/Adopted the draft of \d{4}-\d\d-\d\d: more for the first program/),
  ).toBeVisible();

  const now = (await treeNodes(page)).find((node) => node.id === root.id)!;
  const restored = await page.request.put(`/api/v1/budgets/${root.id}/children`, {
    headers: sameOrigin(),
    data: {
      version: now.version,
      reason: "e2e: put the seeded split back",
      children: children.map(({ id, name, weight }) => ({ id, name, weight })),
    },
  });
  expect(restored.status()).toBe(200);
});

test("an admin copies a new executor token from its own page, and sees when it was last used", async ({
  page,
  context,
  playwright,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInAs(page, "admin");
  await page.goto("/clusters/b300/nodes");
  await page.getByRole("link", { name: "Executor tokens" }).click();
  await expect(page.getByRole("heading", { name: "b300 executor tokens", level: 1 })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Token name").fill("e2e copied bridge");
  await page.getByRole("button", { name: "Create executor token" }).click();
  const token = ((await page.getByLabel("New token").textContent()) ?? "").trim();
  expect(token).toMatch(/^allot_c_/);
  await page.getByRole("button", { name: "Copy the token" }).click();
  await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  const row = page.getByRole("row", { name: /e2e copied bridge/ });
  await expect(row.getByRole("cell").nth(2)).toHaveText("never");
  const executor = await playwright.request.newContext({ baseURL: sameOrigin().Origin });
  const plan = await executor.get("/api/v1/clusters/b300/plan", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(plan.status()).toBe(200);
  await executor.dispose();
  await page.reload();
  await expect(
    page
      .getByRole("row", { name: /e2e copied bridge/ })
      .getByRole("cell")
      .nth(2),
  ).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);

  await page.getByRole("link", { name: "Connecting an executor" }).click();
  await expect(
    page.getByRole("heading", { name: "Connecting an executor", level: 1 }),
  ).toBeVisible();
  await expect(page.getByText("GET /api/v1/clusters/{name}/plan").first()).toBeVisible();
});

test("the split editor takes focus, warns before adding a budget, offers to add its people, and focuses what was saved", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  const nodes = await treeNodes(page);
  const language = nodes.find((node) => node.path === "language")!;
  const seeded = nodes
    .filter((node) => node.parentId === language.id)
    .map(({ id, name, weight }) => ({ id, name, weight }));

  await page.goto(`/budgets?node=${language.id}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Edit split of language" }).click();
  const editor = page.getByRole("region", { name: /Edit split of language$/ });
  await expect(
    editor.getByRole("spinbutton", { name: `Weight of ${seeded[0]!.name}` }),
  ).toBeFocused();

  await editor.getByRole("button", { name: "Add a budget" }).click();
  await editor.getByRole("textbox", { name: /^Name of new budget/ }).fill("e2e-new");
  await expect(editor).toContainText(
    "The new budget gets its share at once, but nobody can use it until a member or lead is added",
  );
  await editor.getByRole("textbox", { name: /Reason for the change/ }).fill("e2e: a new project");
  await editor.getByRole("button", { name: "Save split" }).click();

  const saved = page.getByRole("status", { name: "Saved" });
  await expect(saved).toContainText("Saved the split of language");
  await expect(saved).toBeFocused();
  await saved.getByRole("button", { name: "Add people to e2e-new" }).click();
  await expect(page.getByRole("complementary", { name: "language/e2e-new" })).toBeVisible();
  await expect(
    page
      .getByRole("complementary", { name: "language/e2e-new" })
      .getByRole("textbox", { name: "Add member by email" }),
  ).toBeVisible();

  const now = (await treeNodes(page)).find((node) => node.id === language.id)!;
  const restored = await page.request.put(`/api/v1/budgets/${language.id}/children`, {
    headers: sameOrigin(),
    data: { version: now.version, reason: "e2e: put the seeded split back", children: seeded },
  });
  expect(restored.status()).toBe(200);
});

test("adding budgets under a leaf with open jobs says how many and that the save is refused", async ({
  page,
  browser,
}) => {
  const researcher = await (await browser.newContext()).newPage();
  await signInAs(researcher, "researcher");
  const jobId = await submit(researcher, "language/lm-posttrain/riley", "e2e open job", 8);

  await signInAs(page, "programLead");
  const riley = (await treeNodes(page)).find(
    (node) => node.path === "language/lm-posttrain/riley",
  )!;
  await page.goto(`/budgets?node=${riley.id}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Add budgets under riley" }).click();
  const editor = page.getByRole("region", { name: /Edit split of .*riley$/ });
  await expect(editor.getByRole("button", { name: "Add a budget" })).toBeFocused();
  await editor.getByRole("button", { name: "Add a budget" }).click();
  await expect(editor).toContainText(
    /Saving makes riley a parent: .* riley has (\d+ pending jobs?)?( and )?(\d+ running jobs?)?: queued work must not end up on a parent, so the save is refused until they finish or are cancelled\./,
  );
  await editor.getByRole("button", { name: "Cancel" }).click();

  const cancelled = await researcher.request.post(`/api/v1/jobs/${jobId}/cancel`, {
    headers: sameOrigin(),
    data: { reason: "e2e cleanup" },
  });
  expect(cancelled.status()).toBe(200);
});

test("the drafts page offers to start a draft, which opens the split editor", async ({ page }) => {
  await signInAs(page, "programLead");
  const language = (await treeNodes(page)).find((node) => node.path === "language")!;
  await page.goto(`/budgets/${language.id}/drafts`);
  await page.getByRole("link", { name: "Start a draft" }).click();
  await waitForHydration(page);
  const editor = page.getByRole("region", { name: /Edit split of language$/ });
  await expect(editor).toBeVisible();
  await expect(editor.getByRole("button", { name: "Save as draft" })).toBeVisible();
});
