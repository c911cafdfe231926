import { expect, test } from "@playwright/test";
import { sameOrigin, signInAs, treeNodes, waitForHydration } from "./fixtures";
import { formatGpuHoursNumber } from "../lib/format";

test("a program lead drafts a split, replays today's demand under it, and adopts it", async ({
  page,
  browser,
}) => {
  // Two replays, each waiting for a worker process: the 30 s default is too short on a busy
  // 2-core machine (the waits below allow 60 s each).
  test.setTimeout(150_000);
  // Demand in the period: the seeded history's jobs of today (up to the server's start) and
  // the researcher's work on two language budgets on b300 (the e2e server has no demo executor).
  const researcher = await (await browser.newContext()).newPage();
  await signInAs(researcher, "researcher");
  const tree = await treeNodes(researcher);
  const idOf = (path: string) => tree.find((node) => node.path === path)!.id;
  for (const [path, gpus] of [
    ["language/lm-pretrain", 32],
    ["language/lm-posttrain/riley", 16],
    ["language/lm-pretrain", 64],
  ] as const) {
    const response = await researcher.request.post("/api/v1/jobs", {
      headers: sameOrigin(),
      data: {
        cluster: "b300",
        budgetId: idOf(path),
        name: `what-if ${path}`,
        gpus,
        minRuntimeSec: 3600,
        isResumable: true,
        priority: "normal",
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  }

  await signInAs(page, "programLead");
  const language = tree.find((node) => node.path === "language")!;
  const before = tree.filter((node) => node.parentId === language.id);
  await page.goto(`/budgets?node=${language.id}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Edit split of language" }).click();
  const editor = page.getByRole("region", { name: /Edit split of language$/ });
  await editor.getByRole("spinbutton", { name: "Weight of lm-eval" }).fill("4");
  await editor
    .getByRole("textbox", { name: /Reason for the change/ })
    .fill("Evaluation needs more for the release");
  // Without a period the what-if takes the review's default one, and the button says so.
  await expect(editor.getByRole("button", { name: "Try on the review period" })).toHaveAttribute(
    "title",
    /the review's default period: the last full month once the roll-ups cover it, else the 30 whole days before today/,
  );
  await editor.getByRole("button", { name: "Save as draft" }).click();

  // The draft page: nothing changed in the tree yet.
  await expect(page.getByRole("heading", { name: "Draft split of language" })).toBeVisible();
  const split = page.getByRole("table").first();
  await expect(split.getByRole("row", { name: /^lm-eval / })).toContainText("9.09%"); // 1 / 11
  await expect(split.getByRole("row", { name: /^lm-eval / })).toContainText("28.6%"); // 4 / 14
  expect((await treeNodes(page)).find((node) => node.name === "lm-eval")!.weight).toBe(1);

  // Today so far, on b300 only: the period is replayed up to now. By default the draft alone.
  const today = new Date().toISOString().slice(0, 10);
  const draftUrl = page.url();
  async function runWhatIf(hasControl: boolean) {
    await page.getByLabel("First day").fill(today);
    await page.getByLabel("Last day").fill(today);
    await page.getByRole("checkbox", { name: "h100" }).uncheck();
    await page.getByRole("checkbox", { name: "b200" }).uncheck();
    const control = page.getByRole("checkbox", { name: /Also replay the current split/ });
    await expect(control).not.toBeChecked();
    if (hasControl) await control.check();
    await page.getByRole("button", { name: "Run what-if" }).click();
    await expect(page.getByRole("progressbar", { name: "What-if progress" })).toBeVisible();
  }
  await runWhatIf(false);
  const results = page.getByRole("table", { name: "What-if results per budget" });
  await expect(results).toBeVisible({ timeout: 60_000 });
  await expect(results.getByRole("row", { name: /lm-eval, Replay, draft/ })).toContainText("11.4%");
  await expect(results.getByRole("row", { name: /Replay, current split/ })).toHaveCount(0);
  // The seeded history and the tick keep roll-ups of today: the draft is compared with them.
  await expect(results.getByRole("row", { name: /lm-eval, What happened/ })).toBeVisible();
  await expect(page.getByText(/The draft's replay is compared with what happened/)).toBeVisible();
  // Rows at every level: the program, then its projects and their leaves.
  await expect(results.getByRole("row", { name: /lm-posttrain, What happened/ })).toBeVisible();
  await expect(
    results.getByRole("row", { name: /lm-posttrain\/riley, What happened/ }),
  ).toBeVisible();
  // "What happened" is the review's row: the same entitled GPU-hours for the same day and cluster.
  const review = await page.request.get(
    `/api/v1/reports/review?from=${today}&to=${today}&cluster=b300`,
  );
  expect(review.status()).toBe(200);
  const reviewRow = (
    (await review.json()) as { rows: { id: string; entitledGpuHours: number }[] }
  ).rows.find((row) => row.id === language.id)!;
  const happenedRow = results.getByRole("row", { name: /language \(all\), What happened/ });
  await expect(happenedRow.getByRole("cell").nth(2)).toHaveText(
    formatGpuHoursNumber(reviewRow.entitledGpuHours),
  );

  // Again with the control: the current split replayed beside the draft.
  await page.goto(draftUrl);
  await waitForHydration(page);
  await runWhatIf(true);
  await expect(results).toBeVisible({ timeout: 60_000 });
  // Ours and whatever earlier specs left on b300 today.
  const replayed = await page.getByText(/^\d+ jobs replayed/).textContent();
  expect(Number(replayed?.split(" ")[0])).toBeGreaterThanOrEqual(3);
  // The seeded history and the tick keep roll-ups of today: what happened is shown beside.
  await expect(page.getByText(/No hourly roll-ups cover this period/)).toHaveCount(0);
  // lm-eval's share of every cluster: 40% x 1/11 now, 40% x 4/14 with the draft.
  await expect(results.getByRole("row", { name: /lm-eval, Replay, draft/ })).toContainText("11.4%");
  await expect(results.getByRole("row", { name: /lm-eval, Replay, current split/ })).toContainText(
    "3.64%",
  );
  await expect(page.getByRole("img", { name: /Received GPU-hours per budget/ })).toBeVisible();

  // The result is kept and listed on the draft; adopting saves it with history.
  await page.getByRole("link", { name: "Back to the draft to adopt it" }).click();
  await expect(page.getByRole("table", { name: "What-ifs of this draft" })).toContainText("done");
  await page.getByRole("button", { name: "Adopt this split" }).click();
  const adopt = page.getByRole("dialog", { name: "Adopt this split of language?" });
  await expect(adopt.getByRole("listitem")).toHaveText(["lm-eval: weight 1 → 4"]);
  await adopt.getByRole("textbox", { name: /Why this split/ }).fill("Evaluation needs more");
  await adopt.getByRole("button", { name: "Adopt the split" }).click();
  await expect(page.getByRole("heading", { name: "History of language" })).toBeVisible();
  await expect(
    // Both what-ifs, newest first: the lead may have read either.
    page.getByText(/Adopted the draft of .* after what-ifs on [^;]+; [^;]+: Evaluation needs more/),
  ).toBeVisible();
  expect((await treeNodes(page)).find((node) => node.name === "lm-eval")!.weight).toBe(4);
  // Back on the draft: adopted (not the page as it was before), beside the split it replaced.
  await page.goBack();
  await expect(page.getByText(/^Adopted on /)).toBeVisible();
  await expect(page.getByRole("button", { name: "Adopt this split" })).toHaveCount(0);
  const adoptedSplit = page.getByRole("table", { name: "The draft beside the split in force" });
  await expect(adoptedSplit.getByRole("columnheader", { name: "Weight before" })).toBeVisible();
  await expect(adoptedSplit.getByRole("row", { name: /^lm-eval / }).getByRole("cell")).toHaveText([
    "lm-eval",
    "1",
    "4",
    "9.09%",
    "28.6%",
  ]);
  await expect(adoptedSplit.getByText(/removed on adoption/)).toHaveCount(0);

  // Put the seeded split back for the specs that follow.
  const { version } = (await treeNodes(page)).find((node) => node.id === language.id)!;
  const restored = await page.request.put(`/api/v1/budgets/${language.id}/children`, {
    headers: sameOrigin(),
    data: {
      version,
      reason: "e2e: put the seeded split back",
      children: before.map(({ id, name, weight }) => ({ id, name, weight })),
    },
  });
  expect(restored.status()).toBe(200);
});

test("a what-if of a period with nothing to replay is refused with the field and why; the draft is discarded", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  const tree = await treeNodes(page);
  const language = tree.find((node) => node.path === "language")!;
  const created = await page.request.post(`/api/v1/budgets/${language.id}/drafts`, {
    headers: sameOrigin(),
    data: {
      version: language.version,
      reason: "e2e: periods with nothing to replay",
      children: tree
        .filter((node) => node.parentId === language.id)
        .map(({ id, name, weight }) => ({ id, name, weight })),
    },
  });
  expect(created.status()).toBe(201);
  const { draft } = (await created.json()) as { draft: { id: string } };
  const ask = (from: string, to: string) =>
    page.request.post(`/api/v1/drafts/${draft.id}/what-ifs`, {
      headers: sameOrigin(),
      data: { from, to },
    });
  const before = await ask("2020-01-01T00:00:00Z", "2020-02-01T00:00:00Z");
  expect(before.status()).toBe(422);
  const refusal = (await before.json()) as {
    error: { message: string; issues: { path: string; message: string }[] };
  };
  expect(refusal.error.message).toBe("The period has no history to replay.");
  expect(refusal.error.issues).toEqual([
    {
      path: "to",
      message: expect.stringMatching(
        /^Choose a period that ends later: their history begins \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
      ),
    },
  ]);
  const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const future = await ask(later, new Date(Date.now() + 14 * 86_400_000).toISOString());
  expect(future.status()).toBe(422);
  expect(((await future.json()) as { error: { message: string } }).error.message).toBe(
    "The period has not started yet.",
  );

  // Opened from a review of one cluster's days, the form tries those days on that cluster.
  await page.goto(
    `/budgets/${language.id}/drafts/${draft.id}?from=2026-11-07&to=2026-12-06&cluster=b300`,
  );
  await expect(page.getByLabel("First day")).toHaveValue("2026-11-07");
  await expect(page.getByLabel("Last day")).toHaveValue("2026-12-06");
  await expect(page.getByRole("checkbox", { name: "b300" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "h100" })).not.toBeChecked();

  // On the draft's page a refused period says why once, beside the field, under one alert.
  await page.goto(`/budgets/${language.id}/drafts/${draft.id}`);
  await waitForHydration(page);
  await page.getByLabel("First day").fill("2026-11-10");
  await page.getByLabel("Last day").fill("2026-11-01");
  await page.getByRole("button", { name: "Run what-if" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "invalid fields" })).toHaveText(
    "The request has invalid fields.",
  );
  await expect(page.getByText("The period must end after it starts.")).toHaveCount(1);
  // With no cluster ticked, the button is off and says why.
  const clusters = ["b200", "b300", "h100"].map((name) => page.getByRole("checkbox", { name }));
  for (const box of clusters) await box.uncheck();
  await expect(page.getByRole("button", { name: "Run what-if" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Run what-if" })).toHaveAccessibleDescription(
    "Tick at least one cluster to replay.",
  );
  for (const box of clusters) await box.check();

  // The lead discards the draft: asked first, then back on the node's drafts without it.
  await page.getByRole("button", { name: "Discard this draft" }).click();
  const discard = page.getByRole("dialog", { name: "Discard this draft?" });
  await expect(discard).toContainText("The draft is deleted. The split in force does not change.");
  await discard.getByRole("button", { name: "Discard the draft" }).click();
  await expect(
    page.getByRole("heading", { name: "Drafts of the split of language" }),
  ).toBeVisible();
  await expect(page.getByText("e2e: periods with nothing to replay")).toHaveCount(0);
  expect((await page.request.get(`/api/v1/drafts/${draft.id}`)).status()).toBe(404);
  // Back to it: not the draft as it was, but that it is gone.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "No such draft" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Discard this draft" })).toHaveCount(0);
});

test("a refused 'Try on …' opens the kept draft with the period tried and why", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  const language = (await treeNodes(page)).find((node) => node.path === "language")!;
  // From a review of a month long before the lab's history: nothing to replay.
  await page.goto(`/budgets?node=${language.id}&edit=1&month=2020-01`);
  await waitForHydration(page);
  const editor = page.getByRole("region", { name: /Edit split of language$/ });
  await editor.getByRole("spinbutton", { name: "Weight of lm-eval" }).fill("3");
  await editor.getByRole("textbox", { name: /Reason for the change/ }).fill("e2e: refused try");
  await editor.getByRole("button", { name: "Try on January 2020" }).click();

  await expect(page.getByRole("heading", { name: "Draft split of language" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "history" })).toHaveText(
    "The period has no history to replay.",
  );
  await expect(page.getByLabel("First day")).toHaveValue("2020-01-01");
  await expect(page.getByLabel("Last day")).toHaveValue("2020-01-31");
  await expect(
    page.getByText(/^Choose a period that ends later: their history begins /),
  ).toBeVisible();
  // Said once: a reload shows the draft's form as usual.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByText(/^Choose a period that ends later/)).toHaveCount(0);
});
