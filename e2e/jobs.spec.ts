import {
  expect as baseExpect,
  test,
  type APIRequestContext,
  type Browser,
  type Page,
} from "@playwright/test";
import { sameOrigin } from "./fixtures";
import { DEMO_USERS, type DemoRole } from "../lib/demo/lab-org";

// Each test submits, ticks and reads several pages: on a loaded machine a page or a tick can take
// seconds, so these tests wait longer than the default 5 s before calling a step failed.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

/** As fixtures' signInAs (the demo picker, then hydration), with this file's longer waits. */
async function signInAs(page: Page, role: DemoRole): Promise<void> {
  await page.goto("/signin");
  await waitForHydration(page);
  await page
    .getByRole("button", { name: new RegExp(`Sign in as ${DEMO_USERS[role].name}`) })
    .click();
  await expect(page.getByText(`Signed in as ${DEMO_USERS[role].name}`)).toBeVisible();
  await waitForHydration(page);
}

async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
}

// Issue #35, the researchers' part: the jobs list (paging, filters, sort, counts, visibility),
// "mine" on the queues, start estimates, the submit preview and the budget panel.

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

type Submitted = { id: string; state: string };

async function submit(
  request: APIRequestContext,
  data: { cluster: string; budgetId: string; name: string; gpus: number; minRuntimeSec: number },
): Promise<Submitted> {
  const response = await request.post("/api/v1/jobs", {
    headers: sameOrigin(),
    data: { isResumable: true, priority: "normal", ...data },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { job: Submitted }).job;
}

async function cancel(request: APIRequestContext, jobId: string): Promise<void> {
  await request.post(`/api/v1/jobs/${jobId}/cancel`, { headers: sameOrigin(), data: {} });
}

const RILEY_LEAF = "language/lm-posttrain/riley";
const PRETRAIN = "language/lm-pretrain";

test("a researcher pages, filters and sorts their jobs; the URL keeps it all", async ({ page }) => {
  await signInAs(page, "researcher");
  const tag = `list${Date.now() % 100000}`;
  const riley = await budgetId(page.request, RILEY_LEAF);
  const pretrain = await budgetId(page.request, PRETRAIN);
  const ids: string[] = [];
  for (let i = 1; i <= 26; i += 1) {
    const name = `${tag} ${String(i).padStart(2, "0")}`;
    const budget = i === 26 ? pretrain : riley;
    ids.push(
      (
        await submit(page.request, {
          cluster: "b200",
          budgetId: budget,
          name,
          gpus: 1,
          minRuntimeSec: 600,
        })
      ).id,
    );
  }
  const gone = await submit(page.request, {
    cluster: "b300",
    budgetId: riley,
    name: `${tag} gone`,
    gpus: 1,
    minRuntimeSec: 600,
  });
  await cancel(page.request, gone.id);

  await page.goto(`/jobs?q=${tag}&perPage=25`);
  await waitForHydration(page);
  await expect(page.getByText("Showing 1–25 of 27 · page 1 of 2")).toBeVisible();
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText("Showing 26–27 of 27 · page 2 of 2")).toBeVisible();
  // Newest first: the oldest two are on the last page.
  await expect(page.getByRole("row", { name: new RegExp(`${tag} 01`) })).toBeVisible();

  // Each filter, through the form; the back button undoes it.
  await page.goto(`/jobs?q=${tag}`);
  await waitForHydration(page);
  await page.getByLabel("State").selectOption("cancelled");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/state=cancelled/);
  await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${tag} gone`) })).toContainText(
    "cancelled",
  );
  // A finished job shows no rank.
  await expect(page.getByRole("row", { name: new RegExp(`${tag} gone`) })).not.toContainText(
    "rank",
  );
  await page.goBack();
  await expect(page.getByText("Showing 1–27 of 27")).toBeVisible();
  // The form shows the filters of the list shown, not those of the list left.
  await expect(page.getByLabel("State")).toHaveValue("");

  await page.getByLabel("Cluster").selectOption("b300");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();

  await page.goto(`/jobs?q=${tag}`);
  await page.getByLabel("Budget").selectOption(PRETRAIN);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${tag} 26`) })).toContainText(PRETRAIN);

  await page.goto(`/jobs?state=running`);
  await page.getByLabel("Name or SLURM job id").fill(`${tag} 1`);
  await page.getByRole("button", { name: "Apply filters" }).click();
  // 10 to 19: ten jobs whose names contain "<tag> 1".
  await expect(page.getByText("Showing 1–10 of 10")).toBeVisible();
  // A running job shows its budget's rank of N.
  await expect(page.getByRole("row", { name: new RegExp(`${tag} 10`) })).toContainText(
    /rank \d+ of \d+/,
  );

  // Sort by name, then the other way.
  await page.goto(`/jobs?q=${tag}&state=running`);
  await page.getByRole("link", { name: /^Job( [▲▼])? ?, sort/ }).click();
  await expect(page).toHaveURL(/sort=name/);
  await expect(page.getByRole("columnheader", { name: /^Job/ })).toHaveAttribute(
    "aria-sort",
    "ascending",
  );
  const firstName = () => page.getByRole("row").nth(1).getByRole("rowheader");
  await expect(firstName()).toHaveText(`${tag} 01`);
  await page.getByRole("link", { name: /^Job( [▲▼])? ?, sort/ }).click();
  await expect(page).toHaveURL(/dir=desc/);
  await expect(firstName()).toHaveText(`${tag} 26`);

  // What hides everything, and bad values, said in words.
  await page.goto(`/jobs?q=${tag}&state=failed`);
  await expect(page.getByText("Showing 0 of 0")).toBeVisible();
  await expect(
    page.getByText("No job matches state failed: that filter alone hides every job."),
  ).toBeVisible();
  const bad = await page.goto(`/jobs?q=${tag}&state=done&perPage=7`);
  expect(bad?.status()).toBe(200);
  await expect(
    page.getByText(/Ignored state=done: State is one of pending, running/),
  ).toBeVisible();
  await expect(
    page.getByText("Ignored perPage=7: Rows per page is one of 25, 50, 100."),
  ).toBeVisible();
  await expect(page.getByText("Showing 1–27 of 27")).toBeVisible();
  // A cluster that does not exist is dropped by the page (the API refuses it, below).
  await page.goto(`/jobs?q=${tag}&cluster=nope`);
  await expect(page.getByText('Ignored cluster: No cluster is named "nope".')).toBeVisible();
  await expect(page.getByText("Showing 1–27 of 27")).toBeVisible();

  // The API takes the same parameters and refuses bad ones with the field.
  const api = (await (
    await page.request.get(`/api/v1/jobs?q=${tag}&perPage=25&page=2`)
  ).json()) as {
    jobs: { name: string }[];
    total: number;
    pageCount: number;
    scope: string;
    nowSec: number;
  };
  expect(api.nowSec).toEqual(expect.any(Number));
  expect(api).toMatchObject({
    total: 27,
    pageCount: 2,
    scope: "own",
  });
  expect(api.jobs.map((job) => job.name)).toEqual([`${tag} 02`, `${tag} 01`]);
  const refused = await page.request.get("/api/v1/jobs?perPage=30");
  expect(refused.status()).toBe(422);
  expect((await refused.json()).error.issues[0]).toEqual({
    path: "perPage",
    message: "Rows per page is one of 25, 50, 100.",
  });
  const unknown = await page.request.get("/api/v1/jobs?cluster=nope");
  expect(unknown.status()).toBe(422);
  expect((await unknown.json()).error.issues[0]).toEqual({
    path: "cluster",
    message: 'No cluster is named "nope".',
  });
  // The 26 one-GPU jobs are left running on b200's 512 GPUs: in no other test's way, and
  // cancelling them one by one costs a tick each.
  expect(ids).toHaveLength(26);
});

test("who sees whose jobs: own, a lead's branch, an admin's everyone with a person filter", async ({
  browser,
}) => {
  const tag = `vis${Date.now() % 100000}`;
  const riley = await signedIn(browser, "researcher");
  const pat = await signedIn(browser, "pi");
  const priya = await signedIn(browser, "programLead");
  const admin = await signedIn(browser, "admin");
  const pretrain = await budgetId(riley.request, PRETRAIN);
  const rileyLeaf = await budgetId(riley.request, RILEY_LEAF);
  const jobs = [
    await submit(riley.request, {
      cluster: "b200",
      budgetId: rileyLeaf,
      name: `${tag} riley own leaf`,
      gpus: 1,
      minRuntimeSec: 600,
    }),
    await submit(riley.request, {
      cluster: "b200",
      budgetId: pretrain,
      name: `${tag} riley pretrain`,
      gpus: 1,
      minRuntimeSec: 600,
    }),
    await submit(pat.request, {
      cluster: "b200",
      budgetId: pretrain,
      name: `${tag} pat pretrain`,
      gpus: 1,
      minRuntimeSec: 600,
    }),
  ];
  const seen = async (page: Page, query = ""): Promise<string[]> => {
    await page.goto(`/jobs?q=${tag}${query}`);
    await waitForHydration(page);
    return (await page.getByRole("rowheader").allTextContents()).sort();
  };
  // Riley: their own two. Pat leads lm-pretrain: their own and Riley's charged there.
  expect(await seen(riley)).toEqual([`${tag} riley own leaf`, `${tag} riley pretrain`]);
  await expect(riley.getByRole("columnheader", { name: "Person" })).toHaveCount(0);
  expect(await seen(pat)).toEqual([`${tag} pat pretrain`, `${tag} riley pretrain`]);
  await expect(pat.getByRole("row", { name: new RegExp(`${tag} riley pretrain`) })).toContainText(
    "Riley Chen",
  );
  // Priya leads the whole language program; the admin sees everyone.
  expect(await seen(priya)).toHaveLength(3);
  expect(await seen(admin)).toHaveLength(3);
  await admin.getByLabel("Person").selectOption({ label: "Riley Chen" });
  await admin.getByRole("button", { name: "Apply filters" }).click();
  await expect(admin).toHaveURL(/user=/);
  await expect(admin.getByText("Showing 1–2 of 2")).toBeVisible();
  await expect(admin.getByRole("row", { name: new RegExp(`${tag} pat`) })).toHaveCount(0);
  // Others may cancel only their own (admins any): no Cancel button on Riley's row for Pat.
  await seen(pat);
  await expect(pat.getByRole("button", { name: `Cancel ${tag} riley pretrain` })).toHaveCount(0);
  for (const job of jobs) await cancel(admin.request, job.id);
});

test("queues mark my jobs, show mine only, and give a start estimate", async ({ browser }) => {
  const tag = `q${Date.now() % 100000}`;
  const riley = await signedIn(browser, "researcher");
  const pat = await signedIn(browser, "pi");
  // Which of Riley's two budgets ranks lower on b300 now: it fills the cluster with protected runs.
  const queue = (await (await riley.request.get("/api/v1/clusters/b300/queue")).json()) as {
    budgets: { id: string; path: string; rank: number | null }[];
  };
  const rankOf = (path: string) => queue.budgets.find((row) => row.path === path)?.rank ?? 0;
  const [lower, higher] =
    rankOf(RILEY_LEAF) > rankOf(PRETRAIN) ? [RILEY_LEAF, PRETRAIN] : [PRETRAIN, RILEY_LEAF];
  expect(rankOf(lower)).toBeGreaterThan(rankOf(higher));
  const fill = await submit(riley.request, {
    cluster: "b300",
    budgetId: await budgetId(riley.request, lower),
    name: `${tag} fill`,
    gpus: 88,
    minRuntimeSec: 2 * 3600,
  });
  expect(fill.state).toBe("running");
  const kept = await submit(riley.request, {
    cluster: "b300",
    budgetId: await budgetId(riley.request, higher),
    name: `${tag} kept`,
    gpus: 16,
    minRuntimeSec: 3600,
  });
  const other = await submit(pat.request, {
    cluster: "b300",
    budgetId: await budgetId(pat.request, PRETRAIN),
    name: `${tag} pat`,
    gpus: 4,
    minRuntimeSec: 3600,
  });
  try {
    // The API: exactly expectedStartAt (a bound, for the job nodes are kept for) and startNote.
    const rows = (
      (await (await riley.request.get("/api/v1/clusters/b300/queue")).json()) as {
        pending: {
          name: string;
          expectedStartAt: string | null;
          startNote: string | null;
          summary: string;
        }[];
      }
    ).pending;
    const keptRow = rows.find((row) => row.name === `${tag} kept`)!;
    expect(keptRow.expectedStartAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(keptRow.startNote).toBeNull();
    expect(keptRow.summary).toMatch(
      /^Waiting for whole nodes: nodes .* are being kept for this job and should be free by/,
    );
    const patRow = rows.find((row) => row.name === `${tag} pat`)!;
    expect(patRow.expectedStartAt).toBeNull();
    expect(patRow.startNote).toMatch(/starts/);

    await riley.goto("/clusters/b300");
    await waitForHydration(riley);
    const mine = riley.getByRole("row", { name: new RegExp(`${tag} kept`) });
    // The mark is a word, not a colour: "yours" beside the name.
    await expect(mine.getByText("yours", { exact: true })).toBeVisible();
    await expect(mine).toContainText(/by (\d{4}-\d\d-\d\d )?\d\d:\d\d/);
    await expect(
      riley
        .getByRole("row", { name: new RegExp(`${tag} pat`) })
        .getByText("yours", { exact: true }),
    ).toHaveCount(0);
    await expect(
      riley.getByText(/An expected start counts only protections that end/),
    ).toBeVisible();
    await riley.getByRole("link", { name: "Mine only" }).click();
    await expect(riley).toHaveURL(/\/clusters\/b300\?mine=1$/);
    await expect(riley.getByRole("row", { name: new RegExp(`${tag} pat`) })).toHaveCount(0);
    await expect(riley.getByRole("row", { name: new RegExp(`${tag} kept`) })).toBeVisible();

    // The job page leads with the plain sentence and the estimate; the details follow.
    await riley.getByRole("link", { name: `${tag} kept` }).click();
    await expect(
      riley.getByText(/^Expected to start by (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC$/),
    ).toBeVisible();
    await expect(riley.getByRole("heading", { name: "Details" })).toBeVisible();
    // The conditions of an expected start stand beside one, and only there.
    const conditions = /An expected start counts only protections that end/;
    await expect(riley.getByText(conditions)).toBeVisible();
    await pat.goto(`/jobs/${other.id}`);
    await expect(pat.getByText("No start time is known.")).toBeVisible();
    await expect(pat.getByText(conditions)).toHaveCount(0);

    // Every cluster's queue on one page, my jobs first.
    await riley.getByRole("link", { name: "Queues", exact: true }).click();
    await expect(riley).toHaveURL(/\/queue$/);
    const yours = riley.getByRole("region", { name: "Your jobs" });
    await expect(yours.getByRole("row", { name: new RegExp(`${tag} kept`) })).toContainText(
      /by (\d{4}-\d\d-\d\d )?\d\d:\d\d/,
    );
    await expect(yours.getByRole("row", { name: new RegExp(`${tag} pat`) })).toHaveCount(0);
    const b300 = riley.getByRole("region", { name: "b300" });
    await expect(b300.getByRole("row", { name: new RegExp(`${tag} pat`) })).toBeVisible();
    await riley.getByRole("link", { name: "Mine only" }).click();
    await expect(riley).toHaveURL(/\/queue\?mine=1$/);
    await expect(b300.getByRole("row", { name: new RegExp(`${tag} pat`) })).toHaveCount(0);
    await expect(
      b300
        .getByRole("row", { name: new RegExp(`${tag} kept`) })
        .getByText("yours", { exact: true }),
    ).toBeVisible();
  } finally {
    await cancel(riley.request, kept.id);
    await cancel(pat.request, other.id);
    await cancel(riley.request, fill.id);
  }
});

test("the submit form says what will happen and changes nothing", async ({ page }) => {
  await signInAs(page, "researcher");
  await page.goto("/jobs/new?cluster=h100");
  await waitForHydration(page);
  const preview = page.getByRole("region", { name: "What will happen" });
  await page.getByLabel("Name").fill("preview check");
  await page.getByLabel("Budget", { exact: true }).selectOption({ label: RILEY_LEAF });
  await page.getByLabel("GPUs", { exact: true }).fill("12");
  await expect(preview).toContainText(
    "12 GPUs on h100's 8-GPU nodes: 1 whole node (8 GPUs) plus 4 GPUs on another node: 2 nodes, started together.",
  );
  await page.getByLabel("Minimum runtime (minutes)").fill("30.51");
  await expect(preview).toContainText(
    "Minimum runtime must be whole seconds: 30.51 min is 1,830.6 s.",
  );
  const minutes = page.getByLabel("Minimum runtime (minutes)");
  const submit = page.getByRole("button", { name: "Submit job" });
  await submit.click();
  await expect(minutes).toHaveAttribute("aria-invalid", "true");
  await expect(minutes).toHaveAccessibleDescription(
    /Minimum runtime must be whole seconds: 30\.51 min is 1,830\.6 s\./,
  );
  await minutes.fill("30.5");
  await expect(preview).toContainText("Minimum runtime 30 min 30 s (1,830 s)");
  await minutes.fill("600");
  await expect(preview).toContainText("more than h100's maximum of 8 h; it will be refused.");
  // The field's message is in the minutes typed, with the reason (never "a number of seconds").
  await submit.click();
  await expect(minutes).toHaveAccessibleDescription(
    /Minimum runtime is at most 480 minutes on h100 \(8 h\)\./,
  );
  await minutes.fill("-5");
  await submit.click();
  await expect(minutes).toHaveAccessibleDescription(
    /Minimum runtime cannot be negative: enter 0 minutes or more\./,
  );
  await minutes.fill("");
  await submit.click();
  await expect(minutes).toHaveAccessibleDescription(/Minimum runtime is required: enter a number/);
  await minutes.fill("30.5");
  await page.getByRole("button", { name: "Submit job" }).click();
  await expect(page.getByRole("heading", { name: "preview check" })).toBeVisible();
  await expect(page.getByText("30 min 30 s (1830 s)")).toBeVisible();
  await expect(
    page.getByText("12: 1 whole node (8 GPUs) plus 4 GPUs on another node"),
  ).toBeVisible();
  const id = page.url().split("/").pop()!;
  await cancel(page.request, id);
});

test("the budget panel shows used GPU-hours beside what is owed", async ({ page }) => {
  await signInAs(page, "researcher");
  const id = await budgetId(page.request, PRETRAIN);
  await page.goto(`/budgets?node=${id}`);
  await waitForHydration(page);
  const table = page.getByRole("table", { name: "Owed and used per cluster, in GPU-hours" });
  await expect(table.getByRole("columnheader", { name: "Used, last 7 days" })).toBeVisible();
  const h100 = table.getByRole("row", { name: /^h100/ });
  const cells = await h100.getByRole("cell").allTextContents();
  expect(cells).toHaveLength(2);
  for (const cell of cells) expect(cell).toMatch(/^\d[\d,]*$/);
  // lm-pretrain ran in the seeded week: its use is more than nothing.
  expect(Number(cells[1]!.replace(/,/g, ""))).toBeGreaterThan(0);
});
