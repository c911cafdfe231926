// npx tsx scripts/bench/budgets.ts - the budgets page at 1,000 nodes.
// 1. The editor's live preview: the engine recomputes every share of a 1,000-node tree for
//    each keystroke (budget: median <= 4 ms, well inside one 16 ms frame).
// 2. The page's server render: the production build (run `next build` first) on a fresh
//    embedded database holding the demo lab plus a branch that brings it to 1,000 nodes,
//    signed in as the admin (budget: median <= 300 ms). Skip it with BENCH_SKIP_SERVER=1.
// 3. In Chromium on that page: unfolding all 1,000 rows, and one keystroke in the root's
//    split editor until the next frame (budget: <= 100 ms each). Skip with BENCH_SKIP_BROWSER=1.
import { existsSync } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import {
  previewSplit,
  type DraftChild,
  type NodeRow,
} from "../../components/budget-tree/tree-model.ts";
import { createPrismaClient } from "../../lib/data/db/client.ts";
import { startEmbeddedPostgres } from "../../lib/data/db/embedded-postgres.ts";
import { applyMigrations } from "../../lib/data/db/migrator.ts";
import { DEMO_USERS, type OrgNode } from "../../lib/demo/lab-org.ts";
import { validateBudgetTree } from "../../lib/engine/index.ts";
import { upsertTree } from "../../lib/demo/seed-org.ts";
import { seedDemoLab } from "../../prisma/seed.ts";

const NODES = 1_000;
const PORT = Number(process.env.BENCH_PORT ?? 3220);

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(runs: number, work: () => void): { medianMs: number; maxMs: number } {
  for (let i = 0; i < 20; i += 1) work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  return { medianMs: median(samples), maxMs: Math.max(...samples) };
}

/** root -> 10 programs -> 10 projects each -> leaves, `total` nodes in all, with people. */
function syntheticRows(total: number): NodeRow[] {
  const flat = [{ id: "root", parentId: null as string | null, name: "lab", weight: 1 }];
  for (let p = 0; p < 10; p += 1)
    flat.push({ id: `p${p}`, parentId: "root", name: `p${p}`, weight: 1 + p });
  for (let j = 0; j < 100; j += 1)
    flat.push({ id: `j${j}`, parentId: `p${j % 10}`, name: `j${j}`, weight: 1 + (j % 4) });
  for (let l = 0; flat.length < total; l += 1)
    flat.push({ id: `l${l}`, parentId: `j${l % 100}`, name: `l${l}`, weight: 1 + (l % 3) });
  const tree = validateBudgetTree(flat);
  if (!tree.ok) throw new Error(tree.issues[0]?.message);
  const person = { id: "u", name: "Riley Chen", email: "riley@allot.example" };
  return tree.value.nodes.map((node) => ({
    id: node.id,
    parentId: node.parentId,
    name: node.name,
    path: node.path,
    depth: node.depth,
    isLeaf: node.isLeaf,
    weight: node.weight,
    fraction: node.fraction,
    effectiveShare: node.effectiveShare,
    version: 1,
    leads: [person],
    members: node.isLeaf ? [person, person] : [],
    canEdit: true,
    canManageLeads: true,
  }));
}

function benchPreview(): void {
  const rows = syntheticRows(NODES);
  const draftOf = (parentId: string): DraftChild[] =>
    rows
      .filter((row) => row.parentId === parentId)
      .map((row, index) => ({
        key: row.id,
        id: row.id,
        name: row.name,
        weightText: String(row.weight + (index === 0 ? 1 : 0)),
      }));
  const root = draftOf("root");
  const project = draftOf("j7");
  const whole = time(500, () => previewSplit(rows, "root", root));
  const small = time(500, () => previewSplit(rows, "j7", project));
  console.log(
    `preview, ${rows.length}-node tree, edit of the root's 10 children (999 shares below): median ${whole.medianMs.toFixed(2)} ms, max ${whole.maxMs.toFixed(2)} ms`,
  );
  console.log(
    `preview, ${rows.length}-node tree, edit of a project's ${project.length} children: median ${small.medianMs.toFixed(2)} ms, max ${small.maxMs.toFixed(2)} ms`,
  );
  if (whole.medianMs > 4) process.exitCode = 1;
}

/** Brings the demo lab to `total` live nodes with a branch of projects and personal leaves. */
async function growTree(databaseUrl: string, total: number): Promise<number> {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    const root = await db.budgetNode.findFirstOrThrow({ where: { parentId: null } });
    const existing = await db.budgetNode.count({ where: { removedAt: null } });
    const people = await db.user.findMany({ select: { id: true, email: true }, take: 150 });
    const leaves = total - existing - 1 - 20;
    const projects: OrgNode[] = Array.from({ length: 20 }, (_, p) => ({
      name: `bench-project-${p}`,
      weight: 1 + (p % 5),
      leads: [DEMO_USERS.pi.email],
      members: [],
      children: Array.from({ length: Math.ceil(leaves / 20) }, (_, l) => ({
        name: `leaf-${p}-${l}`,
        weight: 1 + (l % 3),
        leads: [],
        members: [people[(p * 50 + l) % people.length]!.email],
        children: [],
      })),
    }));
    let extra = projects.reduce((sum, project) => sum + 1 + project.children.length, 1);
    for (
      let p = projects.length - 1;
      extra > total - existing;
      p = (p + projects.length - 1) % projects.length
    ) {
      projects[p]!.children.pop();
      extra -= 1;
    }
    const branch = {
      name: "bench",
      weight: 10,
      leads: [DEMO_USERS.programLead.email],
      members: [],
      children: projects,
    };
    await upsertTree(
      db,
      branch,
      root.id,
      new Map(people.map((person) => [person.email, person.id])),
    );
    return db.budgetNode.count({ where: { removedAt: null } });
  } finally {
    await db.$disconnect();
  }
}

async function signIn(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  const response = await fetch(`${base}/api/auth/callback/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email, json: "true" }),
  });
  cookies.push(...response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]));
  return cookies.join("; ");
}

async function benchServerRender(): Promise<void> {
  const database = await startEmbeddedPostgres("memory://");
  const base = `http://localhost:${PORT}`;
  await applyMigrations(database.url);
  await seedDemoLab(database.url, { withHistory: false });
  const count = await growTree(database.url, NODES);
  const server = spawn("node", ["--import", "tsx", "scripts/serve.ts"], {
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL: database.url,
      ALLOT_DEMO: "1",
      NEXTAUTH_URL: base,
      NEXTAUTH_SECRET: "bench-only",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  try {
    for (let i = 0; i < 120; i += 1) {
      if ((await fetch(`${base}/api/v1/health`).catch(() => null))?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const cookie = await signIn(base, DEMO_USERS.admin.email);
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 13; i += 1) {
      const started = performance.now();
      const response = await fetch(`${base}/budgets`, { headers: { cookie } });
      const html = await response.text();
      if (!html.includes("Budget tree"))
        throw new Error(`/budgets answered ${response.status} without the tree`);
      if (i >= 3) samples.push(performance.now() - started);
      bytes = html.length;
    }
    console.log(
      `server render of /budgets, ${count} live nodes, as admin: median ${median(samples).toFixed(0)} ms, max ${Math.max(...samples).toFixed(0)} ms (${samples.length} runs after 3 warm-ups, ${(bytes / 1024).toFixed(0)} KiB of HTML)`,
    );
    if (median(samples) > 300) process.exitCode = 1;
    if (process.env.BENCH_SKIP_BROWSER !== "1") await benchBrowser(base, cookie);
  } finally {
    // The server may have exited already (its error then went to the failing fetch above).
    if (server.exitCode === null && server.signalCode === null) process.kill(-server.pid!);
    await database.stop();
  }
}

/** Milliseconds from a click or keystroke to the frame after React's commit, in the page. */
async function benchBrowser(base: string, cookie: string): Promise<void> {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const [name = "", ...value] = pair.split("=");
        return { name, value: value.join("="), url: base };
      }),
    );
    const page = await context.newPage();
    await page.goto(`${base}/budgets`);
    const untilFrame = (selector: string, action: "click" | "type") =>
      page.evaluate(
        async ({ selector, action }) => {
          const element = document.querySelector<HTMLInputElement>(selector)!;
          const started = performance.now();
          if (action === "click") element.click();
          else {
            const setter = Object.getOwnPropertyDescriptor(
              HTMLInputElement.prototype,
              "value",
            )!.set!;
            setter.call(element, String(Number(element.value) + 1));
            element.dispatchEvent(new Event("input", { bubbles: true }));
          }
          // Wait for React's commit: a transition may take several frames. (No helper
          // functions in here: tsx would wrap them in a helper the page does not have.)
          const isExpand = action === "click" && selector.includes("toolbar");
          do {
            await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
          } while (
            isExpand &&
            document.querySelectorAll(".tree-table tbody tr").length < 1000 &&
            performance.now() - started < 10_000
          );
          return performance.now() - started;
        },
        { selector, action },
      );
    await page.getByRole("button", { name: "Expand all" }).waitFor();
    const expandMs = await untilFrame(".tree-toolbar .button", "click");
    const rows = await page.locator(".tree-table tbody tr").count();
    const selects: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      selects.push(
        await untilFrame(`.tree-table tbody tr:nth-child(${200 + i * 150}) .tree-select`, "click"),
      );
    }
    await page.getByRole("button", { name: "lab", exact: true }).click();
    await page.getByRole("button", { name: /^Edit split of lab/ }).click();
    const keystrokes: number[] = [];
    for (let i = 0; i < 10; i += 1) keystrokes.push(await untilFrame(".weight-input", "type"));
    console.log(
      `browser: unfold all (${rows} rows, in a transition) ${expandMs.toFixed(0)} ms; select a budget with all rows shown: median ${median(selects).toFixed(0)} ms; keystroke in the root's split editor to the next frame: median ${median(keystrokes).toFixed(0)} ms, max ${Math.max(...keystrokes).toFixed(0)} ms`,
    );
    if (expandMs > 1000 || median(keystrokes) > 100) process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

benchPreview();
if (process.env.BENCH_SKIP_SERVER === "1") {
  console.log("server render: skipped (BENCH_SKIP_SERVER=1)");
} else if (!existsSync(path.join(import.meta.dirname, "..", "..", ".next", "BUILD_ID"))) {
  // scripts/serve.ts serves the production build: without one the server exits at once.
  console.log("server render: skipped (it needs `npm run build`)");
} else await benchServerRender();
