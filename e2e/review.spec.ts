import { expect, test } from "@playwright/test";
import { createPrismaClient } from "../lib/data/db/client";
import { formatPeriod, lastFullMonth } from "../lib/reports/review-period";
import { writeReviewHistory } from "../lib/testing/review-history";
import { signInAs, waitForHydration } from "./fixtures";

// The server runs at 1x with no demo executor: its clock is this machine's clock.
const MONTH = lastFullMonth(Math.floor(Date.now() / 1000));

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // Roll-ups of last month on one cluster, written straight into the server's database.
  const url = process.env.E2E_DATABASE_URL;
  if (!url) {
    throw new Error(
      "e2e/review.spec.ts writes roll-ups into the server's database: run it through `npm test` " +
        "with DATABASE_URL set, or set E2E_DATABASE_URL to an empty database.",
    );
  }
  const db = createPrismaClient(url, 2);
  try {
    await writeReviewHistory(db, {
      clusters: ["b300"],
      fromSec: MONTH.fromSec,
      toSec: MONTH.toSec,
      seed: 7,
    });
  } finally {
    await db.$disconnect();
  }
});

/** A CSV document (no quoted fields: the demo lab's names have no commas) as records. */
function parseCsv(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trimEnd().split("\r\n");
  const names = header!.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i]!, v])));
}

const integer = (text: string) => Number(text.replace(/,/g, ""));

test("a program lead opens last month, sees their branch first and exports the CSV", async ({
  page,
}) => {
  await signInAs(page, "programLead");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Review" })
    .click();
  await expect(
    page.getByRole("heading", { name: `Budget review: ${formatPeriod(MONTH)}`, level: 1 }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/review$/);

  const headline = page.getByRole("region", { name: "Headline figures" });
  await expect(headline.getByText(/^\d+\.\d%$/).first()).toBeVisible();

  // The lab's root, then the lead's program, open and marked, then its projects.
  await expect(page.getByText(/^Your branch comes first\. Fulfilment below 95%/)).toBeVisible();
  const table = page.getByRole("table", { name: "Entitled and received GPU-hours per budget" });
  const bodyRows = table.locator("tbody tr");
  await expect(bodyRows.nth(0).getByRole("rowheader")).toContainText("lab");
  const language = bodyRows.nth(1);
  await expect(language.getByRole("rowheader")).toContainText("language");
  await expect(language.getByText("your branch")).toBeVisible();
  await expect(language.getByRole("button", { name: "Collapse language" })).toBeVisible();
  await expect(table.getByRole("row", { name: /lm-pretrain/ })).toBeVisible();
  await expect(table.getByRole("button", { name: "Expand vision" })).toBeVisible();
  const cells = language.getByRole("cell");
  const shownEntitled = integer(await cells.nth(1).innerText());
  const shownAllocated = integer(await cells.nth(3).innerText());
  // Hour by hour, beside the period's fulfilment: "87.4%".
  const shownHourly = Number((await cells.nth(6).innerText()).replace("%", ""));
  expect(shownEntitled).toBeGreaterThan(0);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`allot-review-${MONTH.month}.csv`);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const records = parseCsv(Buffer.concat(chunks).toString("utf8"));
  const row = records.find((record) => record.path === "language")!;
  // The CSV has two decimals, the page none: 530,192 on the page may be 530192.5 in the CSV.
  expect(Math.abs(Number(row.entitled_gpu_hours) - shownEntitled)).toBeLessThanOrEqual(0.5);
  expect(Math.abs(Number(row.received_allocated_gpu_hours) - shownAllocated)).toBeLessThanOrEqual(
    0.5,
  );
  expect(Number(row.fulfilment)).toBeGreaterThan(0);
  expect(Math.abs(Number(row.hourly_fulfilment) * 100 - shownHourly)).toBeLessThanOrEqual(0.06);
  expect(Number(row.debug_jobs)).toBeGreaterThan(0);
  expect(records[0]!.name).toBe("lab");

  // From the review, a lead goes on to a draft of their branch's split, tried on the period and
  // cluster they were reading.
  await page.goto(`/review?month=${MONTH.month}&cluster=b300`);
  await waitForHydration(page);
  await page.getByRole("link", { name: "Try a new split (what-if)" }).click();
  await expect(
    page.getByRole("heading", { name: "Drafts of the split of language", level: 1 }),
  ).toBeVisible();
  await page.getByRole("link", { name: "Start a draft" }).click();
  await expect(
    page.getByRole("button", { name: `Try on ${formatPeriod(MONTH)} on b300` }),
  ).toBeVisible();
});

test("the period and cluster live in the URL; bad input is a 422 that names the field", async ({
  page,
}) => {
  await signInAs(page, "researcher");
  await page.goto("/review");
  await waitForHydration(page);
  // A researcher leads nothing: no what-if to start from here, and no branch said to come first;
  // Riley's budgets (lm-pretrain, lm-posttrain/riley) are what is marked.
  await expect(page.getByRole("link", { name: "Download CSV" })).toBeVisible();
  await expect(page.getByText(/Your branch/)).toHaveCount(0);
  await expect(page.getByText(/^Your budgets? comes? first\. Fulfilment below 95%/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Try a new split (what-if)" })).toHaveCount(0);
  await page.getByLabel("Cluster", { exact: true }).selectOption("b300");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`month=${MONTH.month}.*cluster=b300`));
  await expect(page.getByText(/^b300 ·/)).toBeVisible();

  await page.getByRole("radio", { name: "Days" }).check();
  await page.getByLabel("From").fill(MONTH.fromDate);
  await page.getByLabel("To (included)").fill(MONTH.fromDate);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${MONTH.fromDate}&to=${MONTH.fromDate}`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(
    formatPeriod({
      ...MONTH,
      month: null,
      toDate: MONTH.fromDate,
    }),
  );

  const bad = await page.request.get("/api/v1/reports/review.csv?from=2026-02-30&to=2026-03-01");
  expect(bad.status()).toBe(422);
  expect((await bad.json()).error.issues).toEqual([
    { path: "from", message: "There is no day 30 in February 2026: it has 28 days." },
  ]);
  const unknown = await page.request.get("/api/v1/reports/review.csv?cluster=nope");
  expect(unknown.status()).toBe(422);
  expect((await unknown.json()).error.issues).toEqual([
    { path: "cluster", message: 'No cluster is named "nope".' },
  ]);

  // A period that starts before h100's first roll-up (the seeded history's 35 days) says how much
  // of it is recorded, and from when; b300 here has last month's roll-ups, so it is not named.
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  await page.goto(`/review?from=${day(40).slice(0, 10)}&to=${day(2).slice(0, 10)}&cluster=h100`);
  const note = page.getByRole("note");
  await expect(note).toContainText(
    /^Usage is recorded for part of this period only: h100 [\d,]+ of 936 hours \(from \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\./,
  );
  const recorded = /h100 ([\d,]+) of/.exec((await note.textContent()) ?? "")![1]!;
  // About 35 of the 39 days: the seed's first hour, and the hours since, up to the period's end.
  expect(integer(recorded)).toBeGreaterThan(33 * 24);
  expect(integer(recorded)).toBeLessThan(936);

  // A month to come is said to be one, not a month when nothing was used.
  await page.goto("/review?month=2030-01");
  await expect(
    page.getByText("January 2030 has not begun yet, so no usage is recorded for it"),
  ).toBeVisible();
});
