// Single sign-on, end to end (issue #33 point 6): a production server without demo mode signs
// people in through a real OpenID Connect provider started here on loopback (e2e/oidc-provider.ts),
// on a fresh database. The first admin comes from ALLOT_ADMINS (docs/decisions/093-first-admins.md).
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createPrismaClient, type Db } from "../lib/data/db/client";
import { openScratchDatabase, type ScratchDatabase } from "../lib/testing/scratch-database";
import { startProductionServer, type ProductionServer } from "../lib/testing/production-server";
import { freePort, waitForHydration } from "./fixtures";
import {
  startTestIdentityProvider,
  type TestIdentityProvider,
  type TestPerson,
} from "./oidc-provider";

const PROVIDER_NAME = "University login";
const ADA: TestPerson = { login: "ada", email: "ada@sso.example", name: "Ada Admin" };
const NOOR: TestPerson = { login: "noor", email: "noor@sso.example", name: "Noor Newcomer" };
const LIN: TestPerson = { login: "lin", email: "lin@sso.example", name: "Lin Lead" };
const WRONG_SECRET = "not-the-client-secret-e2e";

type ApiNode = { id: string; parentId: string | null; path: string; version: number };

let database: ScratchDatabase;
let db: Db;
let identityProvider: TestIdentityProvider;
let app: ProductionServer;
let wrongSecretPort: number;
let adminPage: Page;
let leadPage: Page;

// Each test signs in through the provider: several page loads on a busy machine.
test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const serverUrl = process.env.E2E_DATABASE_URL;
  database = await openScratchDatabase(serverUrl ?? "", !serverUrl);
  db = createPrismaClient(database.url, 2);
  // Ports are picked before anything listens, so each search starts past the previous one.
  const appPort = await freePort(Number(process.env.E2E_PORT ?? 3210) + 1);
  wrongSecretPort = await freePort(appPort + 1);
  identityProvider = await startTestIdentityProvider({
    port: await freePort(wrongSecretPort + 1),
    redirectUris: [appPort, wrongSecretPort].map(
      (port) => `http://127.0.0.1:${port}/api/auth/callback/oidc`,
    ),
    people: [ADA, NOOR, LIN],
  });
  app = await startProductionServer(appPort, { env: serverEnv(identityProvider.clientSecret) });
});

test.afterAll(async () => {
  await app?.stop();
  await identityProvider?.stop();
  await db?.$disconnect();
  await database?.drop();
});

/** An operator's settings: no ALLOT_DEMO, the three OIDC_* variables, one admin. */
function serverEnv(clientSecret: string): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    NEXTAUTH_SECRET: "e2e-single-sign-on-nextauth-secret-7c41",
    OIDC_ISSUER: identityProvider.issuer,
    OIDC_CLIENT_ID: identityProvider.clientId,
    OIDC_CLIENT_SECRET: clientSecret,
    OIDC_NAME: PROVIDER_NAME,
    ALLOT_ADMINS: ADA.email,
  };
}

/**
 * A page in a browser context of its own (one person's cookies, at the app and at the provider),
 * which reaches nothing but loopback: the provider's development pages link a web font.
 */
async function newPersonPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.route(
    (url) => !["127.0.0.1", "localhost"].includes(url.hostname),
    (route) => route.abort(),
  );
  return context.newPage();
}

/** From the app's sign-in page through the provider's login and consent pages, and back. */
async function signInThroughProvider(page: Page, origin: string, person: TestPerson) {
  await page.goto(`${origin}/signin`);
  await waitForHydration(page);
  await page.getByRole("button", { name: `Sign in with ${PROVIDER_NAME}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${identityProvider.issuer}/interaction/`));
  await expect(page.getByRole("heading", { name: "Sign-in" })).toBeVisible();
  await page.getByRole("textbox", { name: "Enter any login" }).fill(person.login);
  await page.getByRole("textbox", { name: "and password" }).fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Authorize" })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
}

async function expectSignedIn(page: Page, person: TestPerson) {
  await expect(page).toHaveURL(`${app.url}/`);
  await expect(page.getByText(`Signed in as ${person.name}`)).toBeVisible();
  await waitForHydration(page);
}

async function treeNodes(page: Page): Promise<ApiNode[]> {
  const response = await page.request.get(`${app.url}/api/v1/budgets`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { nodes: ApiNode[] }).nodes;
}

async function nodeAt(page: Page, path: string): Promise<ApiNode> {
  const node = (await treeNodes(page)).find((candidate) => candidate.path === path);
  if (!node) throw new Error(`no budget at "${path}"`);
  return node;
}

/** PUT the children of `node` as the signed-in person of `page`, from the app's own origin. */
async function putChildren(
  page: Page,
  node: ApiNode,
  children: { id?: string; name: string; weight: number }[],
) {
  return page.request.put(`${app.url}/api/v1/budgets/${node.id}/children`, {
    headers: { Origin: app.url },
    data: { version: node.version, reason: "e2e: single sign-on", children },
  });
}

async function rightsOf(email: string) {
  return db.user.findUniqueOrThrow({
    where: { email },
    select: { isAdmin: true, isDemo: true, _count: { select: { leads: true, memberships: true } } },
  });
}

test("the first admin (ALLOT_ADMINS) signs in through the provider and builds the tree", async ({
  browser,
}) => {
  adminPage = await newPersonPage(browser);
  await signInThroughProvider(adminPage, app.url, ADA);
  await expectSignedIn(adminPage, ADA);
  await expect(adminPage.getByText("admin", { exact: true })).toBeVisible();
  expect(await rightsOf(ADA.email)).toEqual({
    isAdmin: true,
    isDemo: false,
    _count: { leads: 0, memberships: 0 },
  });

  // The site had no tree: the first admin's sign-in made its root.
  const root = await nodeAt(adminPage, "");
  expect(
    (
      await putChildren(adminPage, root, [
        { name: "vision", weight: 2 },
        { name: "language", weight: 1 },
      ])
    ).status(),
  ).toBe(200);
  const vision = await nodeAt(adminPage, "vision");
  expect(
    (
      await putChildren(adminPage, vision, [
        { name: "cv-a", weight: 1 },
        { name: "cv-b", weight: 1 },
      ])
    ).status(),
  ).toBe(200);
  expect((await treeNodes(adminPage)).map((node) => node.path).sort()).toEqual([
    "",
    "language",
    "vision",
    "vision/cv-a",
    "vision/cv-b",
  ]);
});

test("a first-time person signs in and gets an account with no rights", async ({ browser }) => {
  const page = await newPersonPage(browser);
  await signInThroughProvider(page, app.url, NOOR);
  await expectSignedIn(page, NOOR);
  await expect(page.getByText("researcher", { exact: true })).toBeVisible();
  expect(await rightsOf(NOOR.email)).toEqual({
    isAdmin: false,
    isDemo: false,
    _count: { leads: 0, memberships: 0 },
  });

  await page.goto(`${app.url}/budgets`);
  await waitForHydration(page);
  await expect(page.getByText("Only leads change a split")).toBeVisible();
  await page.getByRole("button", { name: "vision", exact: true }).click();
  const details = page.getByRole("complementary", { name: "vision" });
  await expect(details).toBeVisible();
  await expect(details.getByRole("button", { name: /Edit split|Add budgets/ })).toHaveCount(0);

  const vision = await nodeAt(page, "vision");
  const refused = await putChildren(page, vision, [{ name: "cv-a", weight: 9 }]);
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  await page.context().close();
});

test("an admin makes a person lead of a branch; they edit its split and no other", async ({
  browser,
}) => {
  leadPage = await newPersonPage(browser);
  // They must have signed in once: leads are added by the email of an account.
  await signInThroughProvider(leadPage, app.url, LIN);
  await expectSignedIn(leadPage, LIN);
  expect((await rightsOf(LIN.email))._count.leads).toBe(0);

  await adminPage.goto(`${app.url}/budgets`);
  await waitForHydration(adminPage);
  await adminPage.getByRole("button", { name: "vision", exact: true }).click();
  const visionDetails = adminPage.getByRole("complementary", { name: "vision" });
  await visionDetails.getByRole("textbox", { name: "Add lead by email" }).fill(LIN.email);
  await visionDetails.getByRole("button", { name: "Add lead" }).click();
  await expect(visionDetails.getByRole("status")).toHaveText(
    `Added ${LIN.name} as lead of vision.`,
  );
  expect((await rightsOf(LIN.email))._count.leads).toBe(1);

  // Rights are read on every request: the lead's open session has them without a new sign-in.
  await leadPage.goto(`${app.url}/budgets`);
  await waitForHydration(leadPage);
  await leadPage.getByRole("button", { name: "vision", exact: true }).click();
  await leadPage.getByRole("button", { name: "Edit split of vision" }).click();
  const editor = leadPage.getByRole("region", { name: /Edit split of vision$/ });
  await editor.getByRole("spinbutton", { name: "Weight of cv-a" }).fill("3");
  await editor.getByRole("textbox", { name: /Reason for the change/ }).fill("cv-a runs the sweep");
  await editor.getByRole("button", { name: "Save split" }).click();
  await expect(
    leadPage.getByRole("status").filter({ hasText: "Saved the split of vision" }),
  ).toBeVisible();
  const weights = await db.budgetNode.findMany({
    where: { parent: { name: "vision" } },
    select: { name: true, weight: true },
    orderBy: { name: "asc" },
  });
  expect(weights).toEqual([
    { name: "cv-a", weight: 3 },
    { name: "cv-b", weight: 1 },
  ]);

  // Not another branch, nor the root.
  for (const path of ["language", ""]) {
    const refused = await putChildren(leadPage, await nodeAt(leadPage, path), [
      { name: "grab", weight: 1 },
    ]);
    expect(refused.status()).toBe(403);
  }
  expect(await db.budgetNode.count({ where: { name: "grab" } })).toBe(0);
});

test("signing out ends the session: protected pages send you to sign in again", async () => {
  await leadPage.goto(`${app.url}/`);
  await waitForHydration(leadPage);
  await leadPage.getByRole("button", { name: "Sign out" }).click();
  await expect(leadPage).toHaveURL(`${app.url}/signin`);
  await expect(
    leadPage.getByRole("button", { name: `Sign in with ${PROVIDER_NAME}` }),
  ).toBeVisible();
  const cookies = (await leadPage.context().cookies(app.url)).map((cookie) => cookie.name);
  expect(cookies.some((name) => name.includes("session-token"))).toBe(false);
  expect(await (await leadPage.request.get(`${app.url}/api/auth/session`)).json()).toEqual({});
  expect((await leadPage.request.get(`${app.url}/api/v1/budgets`)).status()).toBe(401);
  await leadPage.goto(`${app.url}/budgets`);
  // Sent to sign in, with the way back to the page asked for.
  await expect(leadPage).toHaveURL(`${app.url}/signin?callbackUrl=%2Fbudgets`);
  await leadPage.context().close();
  await adminPage.context().close();
});

test("a wrong client secret gives a clear error page that names what to check", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const wrong = await startProductionServer(wrongSecretPort, { env: serverEnv(WRONG_SECRET) });
  try {
    const page = await newPersonPage(browser);
    await signInThroughProvider(page, wrong.url, NOOR);

    await expect(page).toHaveURL(`${wrong.url}/signin/error?error=OAuthCallback`);
    await expect(
      page.getByRole("heading", { name: `${PROVIDER_NAME} did not accept Allot's sign-in` }),
    ).toBeVisible();
    await expect(
      page.getByRole("alert").filter({ hasText: `You signed in at ${PROVIDER_NAME}` }),
    ).toContainText("not with your account");
    const checks = page.getByRole("region", { name: "What an admin should check" });
    await expect(checks.getByRole("listitem").first()).toContainText(
      "OIDC_CLIENT_ID and OIDC_CLIENT_SECRET",
    );
    await expect(checks).toContainText(`${wrong.url}/api/auth/callback/oidc`);
    await expect(page.getByRole("link", { name: "Back to sign-in" })).toBeVisible();
    // The app's words only: no secret, no provider message, no stack.
    const text = await page.locator("body").innerText();
    for (const secret of [
      WRONG_SECRET,
      identityProvider.clientSecret,
      "e2e-single-sign-on-nextauth-secret-7c41",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/invalid_client|Error:|at .*\.js/);
    expect(await (await page.request.get(`${wrong.url}/api/auth/session`)).json()).toEqual({});
    // The cause is the secret: the provider refused the client, and the server's log says so.
    // One JSON line, as every other line of the server's log.
    const refusal = wrong
      .output()
      .split("\n")
      .find((line) => line.includes('"msg":"sign-in: OAUTH_CALLBACK_ERROR"'));
    expect(JSON.parse(refusal ?? "{}")).toMatchObject({
      level: "error",
      authCode: "OAUTH_CALLBACK_ERROR",
      err: { message: expect.stringContaining("invalid_client") },
    });
    await page.context().close();
  } finally {
    await wrong.stop();
  }
});
