import { readdirSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { getBudgetTree } from "./budgets";
import { listClusters } from "./clusters";
import { applyMigrations, MIGRATIONS_DIR } from "./db/migrator";

const databaseUrl = inject("databaseUrl");
const client = new pg.Client({ connectionString: databaseUrl });

beforeAll(async () => {
  await client.connect();
  await seedDemoLab(databaseUrl, { withHistory: false });
});
afterAll(async () => {
  await client.end();
});

const SEEDED_TABLES = [
  "users",
  "budget_nodes",
  "budget_leads",
  "budget_members",
  "clusters",
  "cluster_nodes",
];

async function countRows(tables: string[]): Promise<number[]> {
  const counts: number[] = [];
  for (const table of tables) counts.push(await count(table));
  return counts;
}

async function count(table: string): Promise<number> {
  const result = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`);
  return Number(result.rows[0]?.n);
}

describe("migrations", () => {
  it("records every migration folder in _prisma_migrations and applies nothing twice", async () => {
    const folders = readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((entry) =>
      entry.isDirectory(),
    );
    const applied = await client.query<{ migration_name: string; finished_at: Date | null }>(
      "SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(applied.rows.map((row) => row.migration_name)).toEqual(
      folders.map((folder) => folder.name).sort(),
    );
    expect(applied.rows.every((row) => row.finished_at !== null)).toBe(true);
    expect(await applyMigrations(databaseUrl)).toEqual([]);
  });

  it("refuses a second root and a weight out of range (database backstops)", async () => {
    await expect(
      client.query(
        `INSERT INTO budget_nodes (id, "parentId", name, weight, "updatedAt") VALUES ('x', NULL, 'other', 1, now())`,
      ),
    ).rejects.toThrow(/budget_nodes_single_root/);
    await expect(
      client.query(`UPDATE budget_nodes SET weight = -1 WHERE "parentId" IS NULL`),
    ).rejects.toThrow(/budget_nodes_weight_range/);
  });
});

describe("demo lab seed", () => {
  it("creates the lab of docs/concepts.md", async () => {
    const clusters = await listClusters();
    expect(
      clusters.map(({ name, gpuType, nodes, gpus }) => ({ name, gpuType, nodes, gpus })),
    ).toEqual([
      { name: "b200", gpuType: "B200", nodes: 64, gpus: 512 },
      { name: "b300", gpuType: "B300", nodes: 11, gpus: 88 },
      { name: "h100", gpuType: "H100", nodes: 128, gpus: 1024 },
    ]);
    const tree = await getBudgetTree();
    const programs = tree.filter((node) => node.depth === 1);
    const projects = tree.filter((node) => node.depth === 2);
    expect(programs.map((node) => node.name)).toEqual([
      "language",
      "vision",
      "robotics",
      "science",
    ]);
    expect(projects).toHaveLength(15);
    expect(await count("users")).toBeGreaterThanOrEqual(145);
    // A lead at every level above the researchers.
    expect(tree.filter((node) => node.depth <= 2).every((node) => node.leads.length > 0)).toBe(
      true,
    );
  });

  it("gives shares that add up: leaves sum to 1, each node is its parent's share times its fraction", async () => {
    const tree = await getBudgetTree();
    const byId = new Map(tree.map((node) => [node.id, node]));
    const leafTotal = tree
      .filter((node) => node.isLeaf)
      .reduce((sum, node) => sum + node.effectiveShare, 0);
    expect(leafTotal).toBeCloseTo(1, 12);
    for (const node of tree) {
      const parent = node.parentId ? byId.get(node.parentId) : undefined;
      expect(node.effectiveShare).toBeCloseTo((parent?.effectiveShare ?? 1) * node.fraction, 12);
    }
    expect(byId.get(tree[0]?.id ?? "")?.effectiveShare).toBe(1);
    const pretrain = tree.find((node) => node.path === "language/lm-pretrain");
    expect(pretrain?.effectiveShare).toBeCloseTo(0.4 * (5 / 11), 12);
  });

  it("is idempotent: seeding again adds nothing", async () => {
    const before = await countRows(SEEDED_TABLES);
    await seedDemoLab(databaseUrl, { withHistory: false });
    const after = await countRows(SEEDED_TABLES);
    expect(after).toEqual(before);
  });
});
