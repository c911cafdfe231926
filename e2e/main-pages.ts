import { expect, type Cookie, type Page } from "@playwright/test";
import { DEMO_USERS, type DemoRole } from "../lib/demo/lab-org";
import { sameOrigin } from "./fixtures";

/**
 * The app's main pages, each as the person who uses it and in the state worth checking (a leaf
 * selected, the split editor open, a finished what-if...). Shared by the accessibility and the
 * page-width specs, so both look at the same screens.
 */
export type MainPage = {
  name: string;
  /** Who looks at it; null: signed out. */
  role: DemoRole | null;
  /** Goes to the page (after signing in) and brings it into the state to check. */
  open: (page: Page) => Promise<void>;
};

type ApiNode = { id: string; parentId: string | null; path: string; name: string; weight: number };
type RunStatus = { status: "queued" | "running" | "done" | "failed" };

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

async function postJson<T>(page: Page, url: string, data: unknown): Promise<T> {
  const response = await page.request.post(url, { headers: sameOrigin(), data });
  expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

async function budgetNodes(page: Page): Promise<ApiNode[]> {
  return (await getJson<{ nodes: ApiNode[] }>(page, "/api/v1/budgets")).nodes;
}

// The review and what-if pages hydrate in seconds on a busy 2-core machine: more than the
// fixtures' 5 s. These checks are about what the pages show, not how fast.
const PAGE_TIMEOUT_MS = 30_000;

export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator("html[data-hydrated]")).toBeAttached({ timeout: PAGE_TIMEOUT_MS });
}

/** As the fixtures' signInAs, with PAGE_TIMEOUT_MS for each page. */
export async function signInAs(page: Page, role: DemoRole): Promise<void> {
  const { name } = DEMO_USERS[role];
  await page.goto("/signin");
  await waitForHydration(page);
  await page.getByRole("button", { name: new RegExp(`Sign in as ${name}`) }).click();
  await expect(page.getByText(`Signed in as ${name}`)).toBeVisible({ timeout: PAGE_TIMEOUT_MS });
  await waitForHydration(page);
}

async function go(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await waitForHydration(page);
}

/** Waits until a background run (simulation or what-if) read at `url` is done. */
async function waitUntilDone(page: Page, url: string, key: "simulation" | "whatIf") {
  await expect
    .poll(async () => (await getJson<Record<string, RunStatus>>(page, url))[key]!.status, {
      timeout: 90_000,
      intervals: [1000],
    })
    .toBe("done");
}

const LAYOUT_NAME = "layout check";

/** A finished what-if of a draft of "language" (made once per server, found again after). */
async function whatIfPath(page: Page): Promise<string> {
  const language = (await budgetNodes(page)).find((node) => node.path === "language")!;
  const { drafts } = await getJson<{ drafts: { id: string; reason: string }[] }>(
    page,
    `/api/v1/budgets/${language.id}/drafts`,
  );
  let draftId = drafts.find((draft) => draft.reason === LAYOUT_NAME)?.id;
  if (!draftId) {
    const children = (await budgetNodes(page))
      .filter((node) => node.parentId === language.id)
      .map(({ id, name, weight }) => ({ id, name, weight: name === "lm-eval" ? 4 : weight }));
    const version = (
      await getJson<{ nodes: { id: string; version: number }[] }>(page, "/api/v1/budgets")
    ).nodes.find((node) => node.id === language.id)!.version;
    draftId = (
      await postJson<{ draft: { id: string } }>(page, `/api/v1/budgets/${language.id}/drafts`, {
        version,
        reason: LAYOUT_NAME,
        children,
      })
    ).draft.id;
  }
  const { whatIfs } = await getJson<{ whatIfs: { id: string; status: string }[] }>(
    page,
    `/api/v1/drafts/${draftId}/what-ifs`,
  );
  let runId = whatIfs.find((run) => run.status === "done")?.id;
  if (!runId) {
    // Today on b300, with the current split as a control: both replays and the chart show.
    const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    runId = (
      await postJson<{ whatIf: { id: string } }>(page, `/api/v1/drafts/${draftId}/what-ifs`, {
        from: today.toISOString(),
        to: new Date(today.getTime() + 86_400_000).toISOString(),
        clusters: ["b300"],
        hasControl: true,
      })
    ).whatIf.id;
    await waitUntilDone(page, `/api/v1/drafts/${draftId}/what-ifs/${runId}`, "whatIf");
  }
  return `/budgets/${language.id}/drafts/${draftId}/what-ifs/${runId}`;
}

// Two budgets contending for one small cluster: a run of seconds with every result section.
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
    { id: "a1", budget: "llm/pretrain", cluster: "c1", submit: 0, gpus: 4, work: "6h" },
    { id: "b1", budget: "vision", cluster: "c1", submit: 0, gpus: 4, work: "8h" },
    { id: "b2", budget: "vision", cluster: "c1", submit: "30m", gpus: 2, work: "3h" },
    { id: "a2", budget: "llm/pretrain", cluster: "c1", submit: "2h", gpus: 8, work: "2h" },
  ],
};

/** A finished simulation of a small uploaded scenario (made once per server). */
async function simulationPath(page: Page): Promise<string> {
  const { simulations } = await getJson<{
    simulations: { id: string; name: string; status: string }[];
  }>(page, "/api/v1/simulations");
  let id = simulations.find((run) => run.name === LAYOUT_NAME && run.status === "done")?.id;
  if (!id) {
    id = (
      await postJson<{ simulation: { id: string } }>(page, "/api/v1/simulations", {
        source: "upload",
        name: LAYOUT_NAME,
        scenario: SMALL_SCENARIO,
      })
    ).simulation.id;
    await waitUntilDone(page, `/api/v1/simulations/${id}`, "simulation");
  }
  return `/simulations/${id}`;
}

/** One of the researcher's jobs (a new one when they have none yet). */
async function jobPath(page: Page): Promise<string> {
  const { jobs } = await getJson<{ jobs: { id: string }[] }>(page, "/api/v1/jobs");
  if (jobs[0]) return `/jobs/${jobs[0].id}`;
  const leaf = (await budgetNodes(page)).find((node) => node.path === "language/lm-pretrain")!;
  const { job } = await postJson<{ job: { id: string } }>(page, "/api/v1/jobs", {
    cluster: "h100",
    budgetId: leaf.id,
    name: "layout check",
    gpus: 8,
    minRuntimeSec: 3600,
    isResumable: true,
    priority: "normal",
  });
  return `/jobs/${job.id}`;
}

export const MAIN_PAGES: MainPage[] = [
  {
    name: "sign-in",
    role: null,
    open: (page) => go(page, "/signin"),
  },
  { name: "overview", role: "researcher", open: (page) => go(page, "/") },
  { name: "clusters", role: "researcher", open: (page) => go(page, "/clusters") },
  { name: "a cluster's queue", role: "researcher", open: (page) => go(page, "/clusters/h100") },
  { name: "a cluster's nodes", role: "admin", open: (page) => go(page, "/clusters/b200/nodes") },
  { name: "my jobs", role: "researcher", open: (page) => go(page, "/jobs") },
  { name: "every job, as an admin", role: "admin", open: (page) => go(page, "/jobs") },
  { name: "the queues of every cluster", role: "researcher", open: (page) => go(page, "/queue") },
  { name: "a new job", role: "researcher", open: (page) => go(page, "/jobs/new") },
  { name: "a job", role: "researcher", open: async (page) => go(page, await jobPath(page)) },
  {
    name: "budgets with a leaf selected",
    role: "admin",
    open: async (page) => {
      const leaf = (await budgetNodes(page)).find(
        (node) => node.path === "language/lm-posttrain/riley",
      )!;
      await go(page, `/budgets?node=${leaf.id}`);
      await expect(page.getByRole("button", { name: "Add member" })).toBeVisible();
    },
  },
  {
    name: "budgets with the split editor open",
    role: "programLead",
    open: async (page) => {
      const language = (await budgetNodes(page)).find((node) => node.path === "language")!;
      await go(page, `/budgets?node=${language.id}`);
      await page.getByRole("button", { name: "Edit split of language" }).click();
      await expect(page.getByRole("region", { name: /Edit split of language$/ })).toBeVisible();
      await expect(page.getByRole("table", { name: "Preview of the new shares" })).toBeVisible();
    },
  },
  { name: "review", role: "programLead", open: (page) => go(page, "/review") },
  {
    name: "a what-if result",
    role: "programLead",
    open: async (page) => {
      await go(page, await whatIfPath(page));
      await expect(page.getByRole("table", { name: "What-if results per budget" })).toBeVisible();
    },
  },
  {
    name: "a draft with its what-ifs",
    role: "programLead",
    open: async (page) => {
      // The what-if's page without its last two parts: the draft it belongs to.
      await go(page, (await whatIfPath(page)).replace(/\/what-ifs\/[^/]+$/, ""));
      await expect(page.getByRole("table", { name: "What-ifs of this draft" })).toBeVisible();
    },
  },
  {
    name: "a budget's history",
    role: "programLead",
    open: async (page) => {
      const language = (await budgetNodes(page)).find((node) => node.path === "language")!;
      await go(page, `/budgets/${language.id}/history`);
      await expect(page.getByRole("heading", { name: "History of language" })).toBeVisible();
    },
  },
  { name: "simulations", role: "researcher", open: (page) => go(page, "/simulations") },
  { name: "a new simulation", role: "researcher", open: (page) => go(page, "/simulations/new") },
  {
    name: "a simulation result",
    role: "researcher",
    open: async (page) => {
      await go(page, await simulationPath(page));
      await expect(page.getByRole("heading", { name: "Results" })).toBeVisible();
    },
  },
  { name: "API tokens", role: "researcher", open: (page) => go(page, "/tokens") },
  {
    name: "a cluster's executor tokens",
    role: "admin",
    open: (page) => go(page, "/clusters/b200/tokens"),
  },
  { name: "help", role: "researcher", open: (page) => go(page, "/docs") },
  { name: "a document", role: "researcher", open: (page) => go(page, "/docs/simulator.md") },
];

// One sign-in per person and run: 30 pages x 3 checks would otherwise sign in 90 times.
const sessions = new Map<DemoRole, Cookie[]>();

/** Signs in as the page's person (or stays signed out) and opens it. */
export async function openMainPage(page: Page, main: MainPage): Promise<void> {
  if (main.role) {
    const cookies = sessions.get(main.role);
    if (cookies) {
      await page.context().addCookies(cookies);
    } else {
      await signInAs(page, main.role);
      sessions.set(main.role, await page.context().cookies());
    }
  }
  await main.open(page);
}
