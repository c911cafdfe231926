import { expect, test, type Locator } from "@playwright/test";
import { signInAs } from "./fixtures";

function numberIn(text: string): number {
  const match = /[\d,]+/.exec(text);
  if (!match) throw new Error(`no number in "${text}"`);
  return Number(match[0].replaceAll(",", ""));
}

/** A cluster card's total GPUs (from its head) and the numbers of its named parts. */
async function readCard(card: Locator, cluster: string) {
  const head = await card.getByText(/^[\d,]+ nodes · [\d,]+ GPUs$/).textContent();
  const totalGpus = numberIn(head!.split("·")[1]!);
  const items = card.getByRole("list", { name: `${cluster} GPUs by state` }).getByRole("listitem");
  const parts = (await items.allTextContents()).map((text) => ({
    gpus: numberIn(text),
    label: text.replace(/^[\d,]+\s*/, ""),
  }));
  return { totalGpus, parts };
}

test("every cluster card's named parts add up to the cluster's GPUs; b300's to 88", async ({
  page,
}) => {
  await signInAs(page, "admin");
  await page.goto("/clusters");
  const b300 = await readCard(page.getByRole("region", { name: /^b300\b/ }), "b300");
  expect(b300.totalGpus).toBe(88);
  expect(b300.parts.map((part) => part.label.replace(/ \(.*\)$/, ""))).toEqual([
    "running allocated work",
    "running unallocated work",
    "idle",
    "on draining nodes",
    "on down nodes",
  ]);
  expect(b300.parts.reduce((sum, part) => sum + part.gpus, 0)).toBe(88);

  const names = await page.getByRole("heading", { level: 2 }).getByRole("link").allTextContents();
  expect(names.length).toBeGreaterThan(1);
  for (const name of names) {
    const card = await readCard(
      page.getByRole("region", { name: new RegExp(`^${name}\\b`) }),
      name,
    );
    expect(
      card.parts.reduce((sum, part) => sum + part.gpus, 0),
      `${name}: ${JSON.stringify(card)}`,
    ).toBe(card.totalGpus);
  }
});

test("budget counts say whether they count leaf budgets or nodes of the tree", async ({ page }) => {
  await signInAs(page, "admin");
  const counts = /([\d,]+) leaf budgets, ([\d,]+) nodes in the tree/;
  await page.goto("/");
  const overview = await page.getByText(counts).textContent();
  await page.goto("/budgets");
  const budgets = await page.getByText(counts).textContent();
  // The same two numbers on both pages, each with its noun.
  expect(counts.exec(overview!)!.slice(1)).toEqual(counts.exec(budgets!)!.slice(1));
  const [leaves, nodes] = counts.exec(overview!)!.slice(1).map(numberIn);
  expect(nodes).toBeGreaterThan(leaves!);
});

test("the queue names its clock and writes times as HH:MM UTC", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/clusters/b300");
  await expect(page.getByText("Times are the cluster clock, UTC.")).toBeVisible();
  await expect(page.getByText(/Cluster clock \d\d:\d\d UTC/)).toBeVisible();
  await page.goto("/clusters/b300/nodes");
  await expect(page.getByText("Times are the cluster clock, UTC.")).toBeVisible();
});
