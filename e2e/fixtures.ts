import { createServer } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { DEMO_USERS, type DemoRole } from "../lib/demo/lab-org";

/**
 * Signs in through the demo picker as one of the seeded demo users. Each page is waited for until
 * React has hydrated it (`HydrationMark`): its server-rendered HTML shows before then, and a key
 * pressed or a button clicked in that gap does nothing.
 */
export async function signInAs(page: Page, role: DemoRole): Promise<void> {
  await page.goto("/signin");
  await waitForHydration(page);
  await page
    .getByRole("button", { name: new RegExp(`Sign in as ${DEMO_USERS[role].name}`) })
    .click();
  await expect(page.getByText(`Signed in as ${DEMO_USERS[role].name}`)).toBeVisible();
  await waitForHydration(page);
}

/** Waits until React has hydrated the page's document (`<html data-hydrated>`). */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
}

/**
 * The Origin header a browser sends with the app's own writes. Playwright's API requests send
 * none, and proxy.ts refuses cookie-signed writes without it (docs/decisions/080).
 */
export function sameOrigin(): { Origin: string } {
  const { baseURL } = test.info().project.use;
  if (!baseURL) throw new Error("playwright.config.ts sets no baseURL");
  return { Origin: new URL(baseURL).origin };
}

/** The first port from `from` on that nothing listens on at 127.0.0.1. */
export async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 20; port += 1) {
    const isFree = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (isFree) return port;
  }
  throw new Error(`no free port from ${from}`);
}

/** A node of the budget tree as `GET /api/v1/budgets` gives it. */
export type ApiNode = {
  id: string;
  parentId: string | null;
  path: string;
  name: string;
  weight: number;
  version: number;
};

/** The budget tree as the page's signed-in person reads it from the API. */
export async function treeNodes(page: Page): Promise<ApiNode[]> {
  const response = await page.request.get("/api/v1/budgets");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { nodes: ApiNode[] }).nodes;
}
