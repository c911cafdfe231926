import { expect, type Page } from "@playwright/test";
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
