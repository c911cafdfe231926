import { expect, test, type Page } from "@playwright/test";
import { sameOrigin, signInAs, treeNodes, waitForHydration } from "./fixtures";

/** The split of the node at `path` as the API has it now. */
async function splitOf(page: Page, path: string) {
  const nodes = await treeNodes(page);
  const node = nodes.find((candidate) => candidate.path === path)!;
  const children = nodes
    .filter((candidate) => candidate.parentId === node.id)
    .map(({ id, name, weight }) => ({ id, name, weight }));
  return { node, children };
}

/** Puts a split back as the seed made it, so that other specs see the demo lab. */
async function restoreSplit(
  page: Page,
  path: string,
  children: { id: string; name: string; weight: number }[],
) {
  const { node } = await splitOf(page, path);
  const response = await page.request.put(`/api/v1/budgets/${node.id}/children`, {
    headers: sameOrigin(),
    data: { version: node.version, reason: "e2e: put the seeded split back", children },
  });
  expect(response.status()).toBe(200);
}

async function openEditor(page: Page, name: string) {
  await page.goto("/budgets");
  await waitForHydration(page);
  await page.getByRole("button", { name, exact: true }).click();
  await page.getByRole("button", { name: `Edit split of ${name}` }).click();
  return page.getByRole("region", { name: new RegExp(`Edit split of .*${name}$`) });
}

test("a program lead previews a new split of their program, saves it and reads the history", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  const seeded = await splitOf(page, "language");
  await page.getByRole("link", { name: "Budgets" }).click();
  await expect(page.getByRole("heading", { name: "Budgets", level: 1 })).toBeVisible();
  const editor = await openEditor(page, "language");

  // 6 / (6 + 3 + 1 + 2) = 50% of language's 40%: the preview says so before anything is saved.
  await editor.getByRole("spinbutton", { name: "Weight of lm-pretrain" }).fill("6");
  await expect(editor.getByRole("slider", { name: "Weight of lm-pretrain" })).toHaveValue("6");
  const preview = editor.getByRole("table", { name: "Preview of the new shares" });
  const pretrain = preview.getByRole("row", { name: /^lm-pretrain / });
  await expect(pretrain).toContainText("18.2%"); // now
  await expect(pretrain).toContainText("20.0%"); // after saving
  await expect(pretrain).toContainText("+1.82 pts");
  // Every share below language moves when one weight does: the count says how many, in words.
  await expect(editor.getByText(/^\d+ of \d+ nodes below change\.$/)).toBeVisible();

  await editor.getByRole("button", { name: "Save split" }).click();
  await expect(editor.getByText("Give a reason for the change.")).toBeVisible();
  await editor
    .getByRole("textbox", { name: /Reason for the change/ })
    .fill("More pretraining for the Q1 run");
  await editor.getByRole("button", { name: "Save split" }).click();

  await expect(
    page.getByRole("status").filter({ hasText: "Saved the split of language" }),
  ).toBeVisible();
  const tree = page.getByRole("table", { name: "Budget tree" });
  await expect(tree.getByRole("row", { name: /^lm-pretrain / })).toContainText("50.0%");
  await expect(tree.getByRole("row", { name: /^lm-pretrain / })).toContainText("20.0%");

  await page.getByRole("link", { name: "See the history" }).click();
  await expect(page.getByRole("heading", { name: "History of language" })).toBeVisible();
  const latest = page.getByRole("listitem").first();
  await expect(latest).toContainText("Priya Raman");
  await expect(latest).toContainText("“More pretraining for the Q1 run”");
  await expect(latest.getByRole("row", { name: /^lm-pretrain / })).toContainText("5");
  await expect(latest.getByRole("row", { name: /^lm-pretrain / })).toContainText("6");
  await restoreSplit(page, "language", seeded.children);
});

test("a split that funds nobody below is saved only once the lead ticks that they mean it", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  const seeded = await splitOf(page, "language");
  const editor = await openEditor(page, "language");
  const weights = editor.getByRole("spinbutton", { name: /^Weight of / });
  // A weight the form refuses has its message beside it; the preview waits, quoting no check.
  await weights.first().fill("-3");
  await expect(editor.getByText(/^No preview yet: /)).toHaveText(
    "No preview yet: give every budget a weight the form accepts (see above).",
  );
  // So does a name left empty, rather than quoting the engine's check.
  await weights.first().fill("1");
  await editor.getByRole("button", { name: "Add a budget" }).click();
  await expect(editor.getByText(/^No preview yet: /)).toHaveText(
    "No preview yet: give every budget a name the form accepts (see above).",
  );
  await editor.getByRole("button", { name: /^Remove new budget/ }).click();
  for (const weight of await weights.all()) await weight.fill("0");
  await expect(editor.getByText(/^Every child weighs 0: /)).toBeVisible();
  await editor.getByRole("textbox", { name: /Reason for the change/ }).fill("e2e: pause language");
  await editor.getByRole("button", { name: "Save split" }).click();
  await expect(editor.getByRole("alert")).toHaveText(
    'Tick "Save it anyway: nobody below is owed GPU time" to save this split, or change a weight.',
  );
  expect((await splitOf(page, "language")).node.version).toBe(seeded.node.version);

  await editor
    .getByRole("checkbox", { name: "Save it anyway: nobody below is owed GPU time" })
    .check();
  await editor.getByRole("button", { name: "Save split" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Saved the split of language" }),
  ).toBeVisible();
  expect((await splitOf(page, "language")).children.map((child) => child.weight)).toEqual(
    seeded.children.map(() => 0),
  );
  await restoreSplit(page, "language", seeded.children);
});

test("a weight typed too large, that cuts others under a tenth of their part, is asked about", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  const seeded = await splitOf(page, "language");
  const editor = await openEditor(page, "language");
  await editor.getByRole("spinbutton", { name: "Weight of lm-pretrain" }).fill("1e3");
  await expect(editor.getByText(/^lm-posttrain: its part falls from /)).toHaveText(
    /^lm-posttrain: its part falls from \d+\.\d+% to 0\.\d+%, under a tenth; is a weight mistyped\?$/,
  );
  await editor.getByRole("textbox", { name: /Reason for the change/ }).fill("e2e: a typo");
  await editor.getByRole("button", { name: "Save split" }).click();
  await expect(editor.getByRole("alert")).toHaveText(
    'Tick "Save it anyway: I mean these weights" to save this split, or change a weight.',
  );
  expect((await splitOf(page, "language")).node.version).toBe(seeded.node.version);
  // Ticked for these cuts, it asks again when another weight changes what is cut.
  const accept = editor.getByRole("checkbox", { name: "Save it anyway: I mean these weights" });
  await accept.check();
  await editor.getByRole("spinbutton", { name: "Weight of lm-eval" }).fill("5000");
  await expect(accept).not.toBeChecked();
});

test("Back to the budgets page shows the budget selected there, as its URL says", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  await page.goto("/budgets");
  await waitForHydration(page);
  await page.getByRole("button", { name: "language", exact: true }).click();
  await expect(page.getByRole("complementary", { name: "language" })).toBeVisible();
  await expect(page).toHaveURL(/\/budgets\?node=/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Jobs" }).click();
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/budgets\?node=/);
  const details = page.getByRole("complementary", { name: "language" });
  await expect(details).toBeVisible();
  await expect(details.getByRole("button", { name: "Edit split of language" })).toBeVisible();
});

test("a PI sees no edit controls on a sibling program, and the API answers 403", async ({
  page,
}) => {
  await signInAs(page, "pi");
  await page.goto("/budgets");
  await waitForHydration(page);
  await page.getByRole("button", { name: "vision", exact: true }).click();
  const details = page.getByRole("complementary", { name: "vision" });
  await expect(details).toBeVisible();
  await expect(details.getByRole("button", { name: /Edit split|Add budgets/ })).toHaveCount(0);
  await expect(details.getByRole("button", { name: /Remove/ })).toHaveCount(0);
  await expect(details.getByRole("textbox")).toHaveCount(0);
  await expect(details.getByRole("link", { name: "History" })).toBeVisible();

  const nodes = await treeNodes(page);
  const vision = nodes.find((node) => node.path === "vision")!;
  const children = nodes
    .filter((node) => node.parentId === vision.id)
    .map(({ id, name }) => ({ id, name, weight: 1 }));
  const response = await page.request.put(`/api/v1/budgets/${vision.id}/children`, {
    headers: sameOrigin(),
    data: { version: vision.version, reason: "grab", children },
  });
  expect(response.status()).toBe(403);
  expect((await response.json()).error).toEqual({
    code: "forbidden",
    message: 'Only leads of "vision" or of a budget above it can change its split.',
  });
  const members = await page.request.post(`/api/v1/budgets/${children[0]!.id}/members`, {
    headers: sameOrigin(),
    data: { email: "pat@allot.example" },
  });
  expect(members.status()).toBe(403);
  expect((await members.json()).error.message).toMatch(/^Only leads of ".+" or of a budget above/);
  expect((await treeNodes(page)).find((node) => node.id === vision.id)?.version).toBe(
    vision.version,
  );
});

test("two leads edit the same split: the second gets the conflict screen and re-applies", async ({
  browser,
}) => {
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signInAs(first, "programLead");
  await signInAs(second, "admin");
  const seeded = await splitOf(second, "language/lm-posttrain");
  const firstEditor = await openEditor(first, "lm-posttrain");
  const secondEditor = await openEditor(second, "lm-posttrain");

  await firstEditor.getByRole("spinbutton", { name: "Weight of riley" }).fill("3");
  await firstEditor.getByRole("textbox", { name: /Reason/ }).fill("Riley takes the ablations");
  await firstEditor.getByRole("button", { name: "Save split" }).click();
  await expect(first.getByRole("status").filter({ hasText: "Saved the split" })).toBeVisible();

  await secondEditor.getByRole("button", { name: "Add a budget" }).click();
  await secondEditor.getByRole("textbox", { name: /Name of new budget/ }).fill("visiting.fellow");
  await secondEditor.getByRole("spinbutton", { name: /Weight of new budget/ }).fill("2");
  await secondEditor.getByRole("textbox", { name: /Reason/ }).fill("A visiting fellow joins");
  await secondEditor.getByRole("button", { name: "Save split" }).click();

  const conflict = secondEditor
    .getByRole("alert")
    .filter({ hasText: "Someone else changed this split" });
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText("Priya Raman");
  await expect(conflict).toContainText("Riley takes the ablations");
  await expect(conflict.getByRole("row", { name: /^riley / })).toContainText("3");
  await conflict.getByRole("button", { name: "Re-apply my edit" }).click();
  await expect(secondEditor.getByRole("spinbutton", { name: "Weight of riley" })).toHaveValue("3");
  await secondEditor.getByRole("button", { name: "Save split" }).click();
  await expect(
    second.getByRole("status").filter({ hasText: "Saved the split of lm-posttrain" }),
  ).toBeVisible();

  // Both edits are in force: nothing was lost.
  const nodes = await treeNodes(second);
  const posttrain = nodes.find((node) => node.path === "language/lm-posttrain")!;
  const children = nodes.filter((node) => node.parentId === posttrain.id);
  expect(children.find((node) => node.name === "riley")?.weight).toBe(3);
  expect(children.find((node) => node.name === "visiting.fellow")?.weight).toBe(2);
  await restoreSplit(second, "language/lm-posttrain", seeded.children);
});

test("a PI adds and removes a member of their project; a researcher gets no people controls", async ({
  page,
  browser,
}) => {
  await signInAs(page, "pi");
  await page.goto("/budgets");
  await waitForHydration(page);
  await page.getByRole("button", { name: "lm-pretrain", exact: true }).click();
  const details = page.getByRole("complementary", { name: "language/lm-pretrain" });
  await details.getByRole("textbox", { name: "Add member by email" }).fill("nobody@allot.example");
  await details.getByRole("button", { name: "Add member" }).click();
  await expect(details.getByRole("alert")).toContainText("must sign in once first");

  await details.getByRole("textbox", { name: "Add member by email" }).fill("priya@allot.example");
  await details.getByRole("button", { name: "Add member" }).click();
  await expect(details.getByRole("status")).toContainText("Added Priya Raman as member");
  await expect(details.getByRole("listitem").filter({ hasText: "Priya Raman" })).toBeVisible();
  await details.getByRole("button", { name: "Remove Priya Raman as member" }).click();
  await expect(details.getByRole("listitem").filter({ hasText: "Priya Raman" })).toHaveCount(0);
  // A PI does not appoint co-leads of their own project: that is for the program lead.
  await expect(details.getByRole("textbox", { name: "Add lead by email" })).toHaveCount(0);

  const researcher = await (await browser.newContext()).newPage();
  await signInAs(researcher, "researcher");
  await researcher.goto("/budgets");
  await researcher.getByRole("button", { name: "lm-pretrain", exact: true }).click();
  const readOnly = researcher.getByRole("complementary", { name: "language/lm-pretrain" });
  await expect(readOnly.getByRole("listitem").filter({ hasText: "Riley Chen" })).toBeVisible();
  await expect(readOnly.getByRole("textbox")).toHaveCount(0);
  await expect(readOnly.getByRole("button")).toHaveCount(0);
});

test("the children API: 422 with field paths, 409 with the current state, history by GET", async ({
  page,
}) => {
  await signInAs(page, "admin");
  const { node, children } = await splitOf(page, "science");
  const url = `/api/v1/budgets/${node.id}/children`;
  const invalid = await page.request.put(url, {
    headers: sameOrigin(),
    data: {
      version: node.version,
      reason: "bad",
      children: [...children, { name: "bad name", weight: 1 }, { name: "ok", weight: -2 }],
    },
  });
  expect(invalid.status()).toBe(422);
  const { error } = await invalid.json();
  expect(error.code).toBe("validation_failed");
  expect(error.issues.map((issue: { path: string }) => issue.path)).toEqual([
    `children.${children.length}.name`,
    `children.${children.length + 1}.weight`,
  ]);

  const stale = await page.request.put(url, {
    headers: sameOrigin(),
    data: { version: node.version + 1, reason: "stale", children },
  });
  expect(stale.status()).toBe(409);
  expect((await stale.json()).error.details).toMatchObject({
    kind: "stale-version",
    version: node.version,
    children,
  });

  const history = await page.request.get(`/api/v1/budgets/${node.id}/history`);
  expect(history.status()).toBe(200);
  expect(await history.json()).toMatchObject({ node: { id: node.id, name: "science" } });
});
