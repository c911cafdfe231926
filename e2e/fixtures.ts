import { expect, type Page } from "@playwright/test";
import { DEMO_USERS, type DemoRole } from "../lib/demo/lab-org";

/**
 * Signs in through the demo picker as one of the seeded demo users, and waits for the landing
 * page's scripts: its server-rendered HTML shows before React hydrates it, and a key pressed or a
 * button clicked before then does nothing.
 */
export async function signInAs(page: Page, role: DemoRole): Promise<void> {
  await page.goto("/signin");
  await page
    .getByRole("button", { name: new RegExp(`Sign in as ${DEMO_USERS[role].name}`) })
    .click();
  await expect(page.getByText(`Signed in as ${DEMO_USERS[role].name}`)).toBeVisible();
  await page.waitForLoadState("load");
}
