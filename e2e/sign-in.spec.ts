import { expect, test } from "@playwright/test";
import { signInAs, waitForHydration } from "./fixtures";

test("a visitor who is not signed in is sent to the sign-in page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByRole("heading", { name: "Sign in to Allot" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Sign in as/ })).toHaveCount(4);
});

test("a link followed while signed out leads back to its page after sign-in, never off-site", async ({
  page,
}) => {
  await page.goto("/jobs?state=done");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fjobs%3Fstate%3Ddone$/);
  await waitForHydration(page);
  await page.getByRole("button", { name: /Sign in as Riley/ }).click();
  await expect(page).toHaveURL(/\/jobs\?state=done$/);
  await expect(page.getByText("Signed in as Riley")).toBeVisible();
  // Signed in already, a sign-in link leads on to its page; another site's is ignored.
  await page.goto("/signin?callbackUrl=%2Fbudgets");
  await expect(page).toHaveURL(/\/budgets$/);
  for (const offSite of ["%2F%2Fevil.example%2Fx", "%2F%09%2Fevil.example", "%2F%5Cevil.example"]) {
    await page.goto(`/signin?callbackUrl=${offSite}`);
    await expect(page).toHaveURL(/^http:\/\/(127\.0\.0\.1|localhost):\d+\/$/);
  }
});

test("a researcher signs in and reads the clusters and the budget tree", async ({ page }) => {
  // The app's scripts arrive late, as from a busy server: the tree's toggle is in the page
  // before React can act on it, and the sign-in waits until React has hydrated the page (a race
  // that once failed CI).
  await page.route("**/_next/static/chunks/**", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await signInAs(page, "researcher");
  await expect(page.getByText("researcher", { exact: true })).toBeVisible();

  const clusters = page.getByRole("region", { name: "Clusters" });
  const h100 = clusters.getByRole("row", { name: /h100/ });
  await expect(h100.getByRole("cell")).toHaveText(["H100", "128", "1,024", "128", "0", "0"]);

  const tree = page.getByRole("region", { name: "Budget tree" });
  // language 40% x lm-pretrain 5/11 = 18.2% of 1,024 GPUs x 168 h = 31,279 H100-h/week
  const pretrain = tree.getByRole("row", { name: /lm-pretrain/ });
  await expect(pretrain).toContainText("18.2%");
  await expect(pretrain).toContainText("31,279");
  await expect(tree.getByRole("button", { name: "Edit" })).toHaveCount(0);

  // Researcher leaves are folded; the keyboard unfolds them.
  const toggle = tree.getByRole("button", { name: "Expand lm-posttrain" });
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(tree.getByRole("button", { name: "Collapse lm-posttrain" })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  await expect(tree.getByRole("row", { name: /^riley 1 member\b/ })).toBeVisible();
});

test("the admin signs in, sees the admin role, and signs out", async ({ page }) => {
  await signInAs(page, "admin");
  await expect(page.getByText("admin", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
});

test("an unknown page shows a 404 page with a way back", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the overview" })).toBeVisible();
});

test("Help in the header lists the documents; a name without .md finds its document", async ({
  page,
}) => {
  await signInAs(page, "researcher");
  await page.getByRole("banner").getByRole("link", { name: "Help", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Help", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "How budgets are ranked" }).click();
  await expect(page).toHaveURL(/\/docs\/ranking\.md$/);
  await expect(
    page.getByRole("heading", { name: "How budgets are ranked", level: 1 }),
  ).toBeVisible();

  await page.goto("/docs/concepts");
  await expect(page).toHaveURL(/\/docs\/concepts\.md$/);
  await expect(page.getByRole("heading", { name: "Concepts", level: 1 })).toBeVisible();
  // Only the listed documents are served: no other file of the repository.
  expect((await page.goto("/docs/README.md"))?.status()).toBe(404);

  // Rendered, not raw: tables are tables, a heading has its id, links lead to other documents
  // and decision records, and the generated-file comment is not shown.
  await page.goto("/docs/api.md");
  await expect(page.getByRole("table").first()).toBeVisible();
  await expect(page.getByText("<!--")).toHaveCount(0);
  await page.getByRole("link", { name: "security.md" }).first().click();
  await expect(page).toHaveURL(/\/docs\/security\.md$/);
  await page.goto("/docs/ranking.md");
  await page.getByRole("link", { name: "ADR 002" }).first().click();
  await expect(page).toHaveURL(/\/docs\/decisions\/002-fair-tree\.md$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^002\. Fair Tree/);
  await page.goto("/docs");
  await expect(page.getByRole("link", { name: /^011\. A share guard/ })).toBeVisible();
  for (const path of ["/docs/decisions/999-none.md", "/docs/decisions/..%2Fapi.md"]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
  }
});
