// npx tsx scripts/bench/budgets.ts - the budgets page at 1,000 nodes.
// 1. The editor's live preview: the engine recomputes every share of a 1,000-node tree for
//    each keystroke (budget: median <= 4 ms, well inside one 16 ms frame).
// 2. The page's server render: the production build (run `next build` first) on a fresh
//    embedded database holding the demo lab plus a branch that brings it to 1,000 nodes,
//    signed in as the admin (budget: median <= 300 ms). Skip it with BENCH_SKIP_SERVER=1.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import {
  previewSplit,
  type DraftChild,
  type NodeRow,
} from "../../components/budget-tree/tree-model.ts";
import { createPrismaClient } from "../../lib/data/client.ts";
import { startEmbeddedPostgres } from "../../lib/data/embedded-postgres.ts";
import { applyMigrations } from "../../lib/data/migrator.ts";
import { DEMO_USERS, type OrgNode } from "../../lib/demo/lab-org.ts";
import { validateBudgetTree } from "../../lib/engine/index.ts";
import { upsertTree } from "../../lib/testing/factories.ts";
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
  await seedDemoLab(database.url);
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
  } finally {
    process.kill(-server.pid!);
    await database.stop();
  }
}

benchPreview();
if (process.env.BENCH_SKIP_SERVER !== "1") await benchServerRender();
