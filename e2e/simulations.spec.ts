import { expect, test } from "@playwright/test";
import { signInAs, waitForHydration } from "./fixtures";

// A small lab: one node of 4 GPUs, two budgets, jobs that contend for the node.
const SMALL_SCENARIO = {
  clusters: [{ name: "c1", gpuType: "H100", nodes: 2, gpusPerNode: 4 }],
  tree: {
    name: "lab",
    children: [
      { name: "llm", weight: 3, children: [{ name: "pretrain", weight: 1 }] },
      { name: "vision", weight: 1 },
    ],
  },
  jobs: [
    {
      id: "a1",
      budget: "llm/pretrain",
      cluster: "c1",
      submit: 0,
      gpus: 4,
      work: "6h",
      minRuntime: "1h",
    },
    { id: "b1", budget: "vision", cluster: "c1", submit: 0, gpus: 4, work: "8h", minRuntime: "2h" },
    {
      id: "b2",
      budget: "vision",
      cluster: "c1",
      submit: "30m",
      gpus: 2,
      work: "3h",
      minRuntime: 0,
    },
    {
      id: "a2",
      budget: "llm/pretrain",
      cluster: "c1",
      submit: "2h",
      gpus: 8,
      work: "2h",
      minRuntime: "1h",
    },
    {
      id: "d1",
      budget: "vision",
      cluster: "c1",
      submit: "3h",
      gpus: 1,
      work: "10m",
      minRuntime: "5m",
    },
  ],
};

const BROKEN_SCENARIO = {
  clusters: [{ name: "c1", nodes: 1 }],
  tree: { name: "lab", children: [{ name: "llm", children: [{ name: "pretrain" }] }] },
  jobs: [
    { id: "j1", budget: "llm", cluster: "c1", submit: 0, gpus: 2, work: "1h" },
    { id: "j2", budget: "llm/pretrain", cluster: "c9", submit: 0, gpus: 2, work: "soon" },
  ],
};

function file(name: string, json: unknown) {
  return { name, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(json)) };
}

type Report = Record<
  string,
  { jobs: { runs: { startSec: number; endSec: number; gpus: number }[] }[] }
>;

test("upload a small scenario, watch it run, see both result columns and the timelines", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, "researcher");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Simulations" })
    .click();
  await page.getByRole("link", { name: "New simulation" }).click();
  await page.getByRole("radio", { name: /Upload a scenario file/ }).check();
  await page
    .getByLabel("Scenario file (JSON)")
    .setInputFiles(file("small-lab.json", SMALL_SCENARIO));
  await page.getByLabel("Lookback window").fill("3d");
  await page.getByRole("button", { name: "Run simulation" }).click();

  await expect(page).toHaveURL(/\/simulations\/[a-z0-9]+$/);
  await expect(page.getByRole("heading", { name: "small-lab" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Simulation progress" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Results" })).toBeVisible({ timeout: 90_000 });

  const results = page.getByRole("table", { name: "Baseline and allocation side by side" });
  await expect(
    results.getByRole("columnheader", { name: /Baseline \(priorities\)/ }),
  ).toBeVisible();
  await expect(results.getByRole("columnheader", { name: /Allocation \(budgets\)/ })).toBeVisible();
  await expect(results.getByRole("rowheader", { name: /Utilisation/ })).toBeVisible();
  await expect(results.getByRole("rowheader", { name: /Wait p50, training/ })).toBeVisible();

  // One bar per run and GPU: the timeline draws exactly what the report says ran.
  const id = page.url().split("/").pop()!;
  const report = (await (
    await page.request.get(`/api/v1/simulations/${id}/report`)
  ).json()) as Report;
  expect(Object.keys(report)).toEqual(["baseline", "allocation"]);
  for (const scheduler of ["baseline", "allocation"]) {
    const expected = report[scheduler]!.jobs.flatMap((job) => job.runs)
      .filter((run) => run.endSec > run.startSec)
      .reduce((sum, run) => sum + run.gpus, 0);
    const canvas = page.getByRole("img", {
      name: new RegExp(`^${scheduler}: \\d+ runs drawn on 8 GPUs`),
    });
    await expect(canvas).toHaveAttribute("data-bar-count", String(expected));
  }

  // Each timeline keys its colours: one entry per program.
  const keys = page.getByRole("list", { name: "Programs' colours" });
  await expect(keys).toHaveCount(2);
  await expect(keys.first().getByRole("listitem")).toHaveText(["llm", "vision"]);

  // Zooming in draws fewer bars; the whole-run button brings them back.
  const allocation = page.getByTestId("timeline-allocation");
  const before = Number(await allocation.getAttribute("data-bar-count"));
  await allocation.focus();
  for (let i = 0; i < 6; i++) await page.keyboard.press("+");
  await expect
    .poll(async () => Number(await allocation.getAttribute("data-bar-count")))
    .toBeLessThan(before);
  await page.keyboard.press("0");
  await expect(allocation).toHaveAttribute("data-bar-count", String(before));

  // Hovering b1's run, preempted at 6 h 05 for a2: the comparison that decided, where the two
  // budgets' paths part (llm, pretrain's program, against vision), then the budgets. (d1, a
  // short job, took a GPU a1 freed at 6 h before the ranked queue, ADR 098: a2 waited for its
  // 5-minute protection.)
  const box = (await allocation.boundingBox())!;
  const preempted = page.getByRole("tooltip").filter({ hasText: "Job b1" });
  let isFound = false;
  const at = { x: 0, y: 0 };
  for (let y = 7; y < box.height && !isFound; y += 14) {
    for (let x = 70; x < box.width / 3 && !isFound; x += 24) {
      await page.mouse.move(box.x + x, box.y + y);
      isFound = (await preempted.count()) > 0;
      Object.assign(at, { x, y });
    }
  }
  expect(isFound).toBe(true);
  const decided = preempted.getByRole("table");
  await expect(decided.getByRole("row", { name: /where the branches part/ })).toContainText(
    /llm \d+(\.\d+)?%\s*vision \d+(\.\d+)?%/,
  );
  await expect(decided.getByRole("row", { name: /^budgets/ })).toContainText(
    /llm\/pretrain \d+(\.\d+)?%\s*vision \d+(\.\d+)?%/,
  );
  await expect(preempted).toContainText(
    /Preempted at day 1, 06:05, .*: llm \(at \d+(\.\d+)?% of its weekly share\) ranks above vision \(at \d+(\.\d+)?%(, level[^)]*)?\), where the two budgets' branches part/,
  );
  await page.mouse.move(0, 0);
  await expect(preempted).toHaveCount(0);

  // Without hovering: a click (as a tap) pins a run's details while the pointer moves on over
  // the canvas and after it leaves, and a screen reader hears them; with the canvas focused,
  // ↓ names the first run drawn and Escape hides it.
  const details = page.getByRole("status").filter({ hasText: /^Job / });
  await page.mouse.click(box.x + at.x, box.y + at.y);
  await page.mouse.move(box.x + box.width - 4, box.y + box.height - 4, { steps: 8 });
  await expect(preempted).toBeVisible();
  await expect(details).toContainText("Job b1");
  await page.mouse.move(0, 0);
  await expect(preempted).toBeVisible();
  await allocation.focus();
  await page.keyboard.press("Escape");
  await expect(details).toHaveCount(0);
  await page.keyboard.press("ArrowDown");
  await expect(details).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(details).toHaveCount(0);

  // Both timelines span the same time, the longer run's, so the same x is the same moment.
  const ranges = await Promise.all(
    ["baseline", "allocation"].map((name) =>
      page
        .getByRole("figure", { name: `GPU timeline, ${name}` })
        .getByText(/^day \d+, \d\d:\d\d – /)
        .textContent(),
    ),
  );
  expect(ranges[0]).toBe(ranges[1]);

  await page.getByRole("link", { name: "Simulations", exact: true }).first().click();
  const row = page.getByRole("row", { name: /small-lab/ });
  await expect(row.getByText("done")).toBeVisible();
  await expect(row.getByRole("link", { name: "JSON" })).toHaveAttribute(
    "href",
    `/api/v1/simulations/${id}/report`,
  );
});

test("a broken scenario file is refused with every problem and its JSON path", async ({ page }) => {
  await signInAs(page, "researcher");
  await page.goto("/simulations/new");
  await waitForHydration(page);
  await page.getByRole("radio", { name: /Upload a scenario file/ }).check();
  await page.getByLabel("Scenario file (JSON)").setInputFiles(file("broken.json", BROKEN_SCENARIO));
  await page.getByRole("button", { name: "Run simulation" }).click();

  const alert = page.getByRole("alert").filter({ hasText: /The scenario file has \d+ problems/ });
  await expect(alert).toBeVisible();
  const problems = alert.getByRole("list", { name: "Problems" });
  await expect(
    problems.getByRole("listitem").filter({ hasText: "clusters[0].gpuType" }),
  ).toBeVisible();
  await expect(problems.getByRole("listitem").filter({ hasText: "jobs[0].budget" })).toContainText(
    "not a leaf",
  );
  await expect(problems.getByRole("listitem").filter({ hasText: "jobs[1].cluster" })).toBeVisible();
  await expect(page).toHaveURL(/\/simulations\/new$/);

  await page.getByLabel("Scenario file (JSON)").setInputFiles({
    name: "not-json.json",
    mimeType: "application/json",
    buffer: Buffer.from("{ nope"),
  });
  await page.getByRole("button", { name: "Run simulation" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "not-json.json is not valid JSON." }),
  ).toBeVisible();
});

test("options out of range are named by their fields, next to them", async ({ page }) => {
  await signInAs(page, "researcher");
  await page.goto("/simulations/new");
  await waitForHydration(page);
  await page.getByLabel("Days", { exact: true }).fill("500");
  await page.getByLabel("Seed", { exact: true }).fill("-1");
  await page.getByRole("button", { name: "Run simulation" }).click();

  const problems = page.getByRole("alert").getByRole("list", { name: "Problems" });
  await expect(problems.getByRole("listitem")).toHaveText([
    "Days: A simulation runs at most 120 days.",
    "Seed: The seed is 0 or more.",
  ]);
  const days = page.getByLabel("Days", { exact: true });
  await expect(days).toHaveAttribute("aria-invalid", "true");
  await expect(days).toHaveAccessibleDescription(/^A simulation runs at most 120 days\./);
  await expect(page.getByLabel("Name (optional)")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/simulations\/new$/);
});
