import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { sameOrigin, signInAs, waitForHydration } from "./fixtures";
import type { DemoRole } from "../lib/demo/lab-org";

async function signedIn(browser: Browser, role: DemoRole): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, role);
  return page;
}

async function budgetId(request: APIRequestContext, path: string): Promise<string> {
  const body = (await (await request.get("/api/v1/budgets")).json()) as {
    nodes: { id: string; path: string }[];
  };
  const node = body.nodes.find((entry) => entry.path === path);
  if (!node) throw new Error(`no budget ${path}`);
  return node.id;
}

type JobBody = { job: { id: string; state: string; runs: { id: string; nodes: number[] }[] } };

async function submit(request: APIRequestContext, data: Record<string, unknown>): Promise<JobBody> {
  const response = await request.post("/api/v1/jobs", { headers: sameOrigin(), data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as JobBody;
}

test("a researcher submits a job and sees it ranked with a reason", async ({ page }) => {
  await signInAs(page, "researcher");
  const pretrain = await budgetId(page.request, "language/lm-pretrain");
  // Fill h100 with a protected run so that the next job has to wait. Whether lm-pretrain ranks
  // below or above Riley's own leaf on h100 depends on the seeded week: the reason then says
  // the GPUs are held by protected runs (out of protection by a time) or by budgets ranked above.
  await submit(page.request, {
    cluster: "h100",
    budgetId: pretrain,
    name: "fill h100",
    gpus: 1024,
    minRuntimeSec: 8 * 3600,
    isResumable: true,
    priority: "normal",
  });

  await page.goto("/jobs/new?cluster=h100");
  await waitForHydration(page);
  await page.getByLabel("Name").fill("llama sweep 7");
  await page
    .getByLabel("Budget", { exact: true })
    .selectOption({ label: "language/lm-posttrain/riley" });
  await page.getByLabel("GPUs", { exact: true }).fill("2000");
  await page.getByRole("button", { name: "Submit job" }).click();
  await expect(
    page.getByText("h100 has 1024 GPUs; a job of 2000 GPUs can never run there."),
  ).toBeVisible();
  await expect(page.getByLabel("GPUs", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("GPUs", { exact: true }).fill("16");
  await page.getByLabel("Minimum runtime (minutes)").fill("120");
  await page.getByRole("button", { name: "Submit job" }).click();
  await expect(page.getByRole("heading", { name: "llama sweep 7" })).toBeVisible();
  const why = page.getByRole("region", { name: /#1 in the queue, budget rank \d+ of \d+/ });
  await expect(why).toContainText(
    // The clock alone when the protection ends today, with the date after midnight.
    /Waiting: needs 16 GPUs on 2 whole nodes; 0 are free .*1024 are (held by protected runs of budgets ranked below its budget \(enough for this job are out of protection by (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\)|used by budgets ranked at or above its budget, 1024 of them by language\/lm-pretrain)/,
  );

  await page.getByRole("link", { name: "h100" }).first().click();
  const row = page.getByRole("row", { name: /llama sweep 7/ });
  await expect(row).toContainText("language/lm-posttrain/riley");
  await expect(row).toContainText("Waiting: needs 16 GPUs");

  await page.goto("/jobs");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Cancel fill h100" }).click();
  await page
    .getByRole("dialog", { name: /^Cancel job fill h100/ })
    .getByRole("button", { name: "Cancel the job" })
    .click();
  await expect(page.getByRole("row", { name: /fill h100/ })).toContainText("cancelled");
  // With the cluster free, the waiting job starts at once.
  await expect(page.getByRole("row", { name: /llama sweep 7/ })).toContainText("running");
});

test("a cluster's ranks show the tree as Fair Tree walks it, ranks reading down", async ({
  page,
}) => {
  await signInAs(page, "researcher");
  const riley = await budgetId(page.request, "language/lm-posttrain/riley");
  const { job } = await submit(page.request, {
    cluster: "b200",
    budgetId: riley,
    name: "rank check",
    gpus: 1,
    minRuntimeSec: 600,
    isResumable: true,
    priority: "normal",
  });
  await page.goto(`/jobs/${job.id}`);
  await waitForHydration(page);
  await page.getByRole("link", { name: "how budgets rank on b200" }).click();
  await expect(page).toHaveURL(/\/clusters\/b200#ranks$/);
  const table = page.getByRole("table", { name: "Budget tree by Fair Tree rank" });
  await expect(table.getByRole("row", { name: /^language\b/ })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /Level FS/ })).toBeVisible();
  // Leaves' ranks, in the order the page lists them, never go down: the tree explains the order.
  const lastCells = await table
    .getByRole("row")
    .evaluateAll((rows) => rows.map((row) => row.lastElementChild?.textContent?.trim() ?? ""));
  const ranks = lastCells.filter((text) => /^\d+$/.test(text)).map(Number);
  expect(ranks.length).toBeGreaterThan(20);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  await page.request.post(`/api/v1/jobs/${job.id}/cancel`, { headers: sameOrigin(), data: {} });
});

test("a preempted job's page says why, in a sentence with numbers", async ({ page }) => {
  await signInAs(page, "researcher");
  const posttrain = await budgetId(page.request, "language/lm-posttrain/riley");
  const pretrain = await budgetId(page.request, "language/lm-pretrain");
  const victim = await submit(page.request, {
    cluster: "b300",
    budgetId: posttrain,
    name: "long eval",
    gpus: 88,
    minRuntimeSec: 1,
    isResumable: false,
    priority: "normal",
  });
  expect(victim.job.state).toBe("running");
  await page.waitForTimeout(1500);
  const preemptor = await submit(page.request, {
    cluster: "b300",
    budgetId: pretrain,
    name: "pretrain shard",
    gpus: 8,
    minRuntimeSec: 3600,
    isResumable: true,
    priority: "high",
  });
  expect(preemptor.job.state).toBe("running");

  await page.goto(`/jobs/${victim.job.id}`);
  await waitForHydration(page);
  await expect(page.getByText("preempted", { exact: true })).toBeVisible();
  await expect(
    page.getByText(
      /Preempted at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, after its 1 s protected period: language\/lm-pretrain \(at \d+(\.\d+)?% of its weekly share\) ranks above language\/lm-posttrain \(at \d+(\.\d+)?%(, level[^)]*)?\), where the two budgets' branches part, so language\/lm-pretrain \(at \d+(\.\d+)?% of its weekly share\) needed 8 GPUs and preempted language\/lm-posttrain\/riley \(at \d+(\.\d+)?%\)\. The job is not resumable and ends as preempted\./,
    ),
  ).toBeVisible();
  await page.getByRole("link", { name: "the job that needed it" }).click();
  await expect(page.getByRole("heading", { name: "pretrain shard" })).toBeVisible();
});

test("an admin drains a node and watches it empty itself", async ({ browser }) => {
  // Two sign-ins, a token, the executor protocol and the drain's confirmation: more than 30 s
  // on a busy machine.
  test.setTimeout(90_000);
  const riley = await signedIn(browser, "researcher");
  const pretrain = await budgetId(riley.request, "language/lm-pretrain");
  const { job } = await submit(riley.request, {
    cluster: "b200",
    budgetId: pretrain,
    name: "short protected",
    gpus: 8,
    minRuntimeSec: 1,
    isResumable: true,
    priority: "normal",
  });
  const runId = job.runs[0]!.id;
  const node = job.runs[0]!.nodes[0]!;

  const admin = await signedIn(browser, "admin");
  await admin.goto("/clusters/b200/tokens");
  await admin.getByLabel("Token name").fill("e2e executor");
  await admin.getByRole("button", { name: "Create executor token" }).click();
  const token = (await admin.getByLabel("New token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^allot_c_/);

  // The executor protocol, with the cluster token: read the plan, acknowledge the start.
  const headers = { Authorization: `Bearer ${token}` };
  const plan = await riley.request.get("/api/v1/clusters/b200/plan", { headers });
  expect(plan.status()).toBe(200);
  const planBody = (await plan.json()) as { starts: { runId: string; sentence: string }[] };
  expect(planBody.starts.map((start) => start.runId)).toContain(runId);
  const started = { id: `e2e-started-${runId}`, kind: "job.started", runId };
  for (const expected of ["applied", "duplicate"]) {
    const response = await riley.request.post("/api/v1/clusters/b200/events", {
      headers,
      data: started,
    });
    expect((await response.json()).results[0].outcome).toBe(expected);
  }
  expect((await riley.request.get("/api/v1/clusters/h100/plan", { headers })).status()).toBe(403);
  expect((await riley.request.get("/api/v1/budgets", { headers })).status()).toBe(403);

  await admin.waitForTimeout(1100);
  await admin.goto("/clusters/b200/nodes");
  await waitForHydration(admin);
  await admin.getByRole("button", { name: `Drain node ${node}`, exact: true }).click();
  const dialog = admin.getByRole("dialog", { name: `Drain node ${node}?` });
  // Its protected period has ended: the confirmation says it is preempted at once.
  await expect(dialog).toContainText("Its run is preempted at once");
  await expect(dialog.getByRole("link", { name: "short protected" })).toBeVisible();
  await dialog.getByRole("textbox", { name: /Reason/ }).fill("e2e maintenance");
  await dialog.getByRole("button", { name: `Drain node ${node}` }).click();
  const history = admin.getByRole("region", { name: "Node history" });
  await expect(history).toContainText(
    new RegExp(
      `Node ${node} emptied at (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC: its drain finished, ready for maintenance\\.`,
    ),
  );
  await expect(
    admin.getByRole("row", {
      name: new RegExp(`^${node} draining · set by Ada Okafor .*: e2e maintenance.*empty since`),
    }),
  ).toBeVisible();

  const after = (await (
    await riley.request.get("/api/v1/clusters/b200/plan", { headers })
  ).json()) as {
    preemptions: { runId: string; sentence: string }[];
  };
  const stop = after.preemptions.find((entry) => entry.runId === runId);
  expect(stop?.sentence).toMatch(new RegExp(`node ${node} is draining for maintenance`));
});

test("an admin's refused input shows in the form, and a malformed id is the 404 page", async ({
  browser,
}) => {
  const admin = await signedIn(browser, "admin");
  await admin.goto("/clusters/b300/tokens");
  await waitForHydration(admin);
  await admin.getByLabel("Token name").fill("x".repeat(81));
  await admin.getByRole("button", { name: "Create executor token" }).click();
  // Next's route announcer is an alert too: find the form's by its text.
  await expect(
    admin.getByRole("alert").filter({ hasText: "A token name has at most 80 characters." }),
  ).toBeVisible();
  await expect(admin.getByLabel("New token")).toHaveCount(0);
  await expect(admin.getByLabel("Token name")).toHaveAttribute("aria-invalid", "true");

  for (const path of ["/clusters/b3%0000/nodes", "/jobs/%01", `/simulations/${"x".repeat(101)}`]) {
    const response = await admin.goto(path);
    expect(response?.status(), path).toBe(404);
  }
});
