// `allot slurm sync-accounts` end to end: the command line, in this process, against the real
// GET /api/v1/clusters/{name}/accounts route handler (served over HTTP on a free port) on a
// fresh real database with the demo lab, and the project's local SLURM (sacctmgr, sshare,
// sbatch). What SLURM says is read back from SLURM itself.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { main } from "../cli/main";
import type { CliIo } from "../cli/io";
import { createPrismaClient, type Db } from "../data/db/client";
import { openScratchDatabase, type ScratchDatabase } from "../testing/scratch-database";
import { DEMO_USERS } from "../demo/lab-org";
import { createSlurmRunner } from "./slurm-cli";
import { parseSlurmAccountState, stateQueries } from "./sync-accounts";

const run = promisify(execFile);
const CLUSTER = "b300";
// A member whose login is a Unix user of every machine, so root can `sbatch --uid` as them.
const UNIX_MEMBER = "nobody@allot.example";

let scratch: ScratchDatabase;
let db: Db;
let server: Server;
let serverUrl = "";
let slurmCluster = "";

type Wanted = { name: string; parent: string; fairshare: number; users: string[] };
type CliResult = { code: number; stdout: string; stderr: string };

async function sync(...extra: string[]): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    isStderrTty: false,
    readText: () => "",
    writeText: () => undefined,
  };
  const argv = ["slurm", "sync-accounts", "--cluster", CLUSTER, "--server", serverUrl, ...extra];
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function wantedAccounts(): Promise<Wanted[]> {
  const response = await fetch(`${serverUrl}/api/v1/clusters/${CLUSTER}/accounts`, {
    headers: { authorization: `Bearer ${process.env.ALLOT_TOKEN}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { accounts: Wanted[] }).accounts;
}

/** sshare -a -P as { account: { parent, shares, users } }, the tree read from indentation. */
async function sshareTree(): Promise<
  Record<string, { parent: string; shares: string; users: string[] }>
> {
  const { stdout } = await run("sshare", ["-a", "-P"]);
  const tree: Record<string, { parent: string; shares: string; users: string[] }> = {};
  const stack: string[] = [];
  for (const line of stdout.split("\n").slice(1)) {
    if (line.trim() === "") continue;
    const [accountCell = "", user = "", rawShares = ""] = line.split("|");
    const depth = accountCell.length - accountCell.trimStart().length;
    const account = accountCell.trim();
    if (user !== "") {
      tree[account]!.users.push(user);
      continue;
    }
    stack.length = depth;
    tree[account] = { parent: stack[depth - 1] ?? "", shares: rawShares, users: [] };
    stack.push(account);
  }
  for (const entry of Object.values(tree)) entry.users.sort();
  delete tree.root;
  return tree;
}

function expectedTree(wanted: Wanted[]) {
  return Object.fromEntries(
    wanted.map((a) => [
      a.name,
      { parent: a.parent, shares: String(a.fairshare), users: [...a.users].sort() },
    ]),
  );
}

async function sbatch(account: string): Promise<{ ok: boolean; text: string; jobId?: string }> {
  try {
    const { stdout } = await run("sbatch", [
      "--parsable",
      "--uid=nobody",
      `--account=${account}`,
      "--chdir=/tmp",
      "--output=/dev/null",
      "--wrap=sleep 600",
    ]);
    return { ok: true, text: stdout, jobId: stdout.trim().split(";")[0] };
  } catch (error) {
    return { ok: false, text: String((error as { stderr?: string }).stderr) };
  }
}

/**
 * Empties the local cluster's accounting tree: every account but SLURM's root, and the users
 * of those accounts (root keeps its own), in two sacctmgr calls (each costs about half a
 * second here). The file starts from, and leaves, a cluster with no accounts, whatever other
 * SLURM test files added.
 */
async function clearAccounts(): Promise<void> {
  const runner = createSlurmRunner();
  const outputs: string[] = [];
  for (const query of stateQueries(slurmCluster)) outputs.push(await runner("sacctmgr", query));
  const state = parseSlurmAccountState(outputs[0]!, outputs[1]!, outputs[2]!);
  const accounts = [...state.organizationByAccount.keys()].filter((name) => name !== "root");
  const users = [
    ...new Set(
      state.associations
        .filter((a) => a.user !== "" && a.user !== "root" && accounts.includes(a.account))
        .map((a) => a.user),
    ),
  ];
  if (users.length > 0) {
    await runner("sacctmgr", ["-i", "delete", "user", "where", `name=${users.join(",")}`]);
  }
  if (accounts.length > 0) {
    await runner("sacctmgr", ["-i", "delete", "account", "where", `name=${accounts.join(",")}`]);
  }
}

async function leafOf(path: string[]) {
  let parentId: string | null = (
    await db.budgetNode.findFirstOrThrow({
      where: { parentId: null, removedAt: null },
    })
  ).id;
  for (const name of path) {
    parentId = (
      await db.budgetNode.findFirstOrThrow({ where: { parentId, name, removedAt: null } })
    ).id;
  }
  return db.budgetNode.findUniqueOrThrow({ where: { id: parentId } });
}

beforeAll(async () => {
  scratch = await openScratchDatabase(inject("databaseUrl"), inject("isEmbeddedDatabase"));
  process.env.DATABASE_URL = scratch.url; // before the data layer's first query
  await seedDemoLab(scratch.url, { withHistory: false });
  db = createPrismaClient(scratch.url, 2);
  const { createClusterToken } = await import("../data/tokens");
  const { GET } = await import("../../app/api/v1/clusters/[name]/accounts/route");
  const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  process.env.ALLOT_TOKEN = (await createClusterToken(CLUSTER, "sync test", admin.id)).token;

  server = createServer((req, res) => {
    const name = /^\/api\/v1\/clusters\/([^/]+)\/accounts$/.exec(req.url ?? "")?.[1];
    if (!name) return void res.writeHead(404).end();
    const request = new Request(`http://127.0.0.1${req.url}`, {
      headers: Object.entries(req.headers).map(([k, v]) => [k, String(v)] as [string, string]),
    });
    void GET(request, { params: Promise.resolve({ name: decodeURIComponent(name) }) }).then(
      async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(await response.text());
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { stdout } = await run("scontrol", ["show", "config"]);
  slurmCluster = /^ClusterName\s*=\s*(\S+)/m.exec(stdout)![1]!;
  await clearAccounts();

  // The Unix user "nobody" joins the first leaf of the lab, so sbatch can submit as them.
  const leaf = await leafOf(["language", "lm-eval"]);
  const nobody = await db.user.create({ data: { email: UNIX_MEMBER, name: "Nobody" } });
  await db.budgetMember.create({ data: { nodeId: leaf.id, userId: nobody.id } });
});

afterAll(async () => {
  await run("scancel", ["--user=nobody"]).catch(() => undefined);
  if (slurmCluster) await clearAccounts().catch(() => undefined);
  server?.close();
  await db?.$disconnect();
  await scratch?.drop();
});

describe("allot slurm sync-accounts on the demo lab", () => {
  it("writes the tree: sshare lists the same accounts, parents, weights and users", async () => {
    const result = await sync();
    expect(result.stderr).toMatch(/changes applied/);
    expect(result.code).toBe(0);
    const wanted = await wantedAccounts();
    expect(wanted.length).toBeGreaterThan(20);
    expect(wanted[0]).toMatchObject({ parent: "root" });
    expect(wanted.find((a) => a.name === "language.lm-eval")?.users).toContain("nobody");
    await expect.poll(sshareTree, { timeout: 10_000 }).toEqual(expectedTree(wanted));
  });

  it("changes nothing on a second run, and says so", async () => {
    expect(await sync()).toEqual({
      code: 0,
      stdout: "",
      stderr: expect.stringMatching(/already matches the budget tree .*nothing to change/),
    });
    expect(await sync("--dry-run")).toMatchObject({ code: 0, stdout: "" });
  });

  it("lets SLURM accept sbatch -A <leaf> of a member and refuse other accounts itself", async () => {
    const accepted = await sbatch("language.lm-eval");
    expect(accepted).toMatchObject({ ok: true });
    expect((await run("squeue", ["-h", "-j", accepted.jobId!, "-o", "%a %u"])).stdout.trim()).toBe(
      "language.lm-eval nobody",
    );
    await run("scancel", [accepted.jobId!]);
    for (const account of ["nosuch", "language.lm-pretrain"]) {
      const refused = await sbatch(account);
      expect(refused.ok).toBe(false);
      expect(refused.text).toMatch(/Invalid account/);
    }
  });

  it("keeps a member from releasing a held job, with a reason rather than 'Unspecified error'", async () => {
    const job = await sbatch("language.lm-eval");
    expect(job).toMatchObject({ ok: true });
    const asMember = (args: string[]) =>
      run("runuser", ["-u", "nobody", "--", "scontrol", ...args]).then(
        () => "",
        (error: { stderr?: string }) => String(error.stderr),
      );
    // SLURM 22.05 discards log_user from slurm_job_modify, so the error code is what users see.
    expect(await asMember(["release", job.jobId!])).toMatch(/Access\/permission denied/);
    expect(await asMember(["update", `JobId=${job.jobId}`, "Priority=100"])).toMatch(
      /Access\/permission denied/,
    );
    const state = await run("squeue", ["-h", "-j", job.jobId!, "-o", "%T %r"]);
    expect(state.stdout.trim()).toBe("PENDING JobHeldUser");
    await run("scancel", [job.jobId!]);
  });

  it("prints the commands with --dry-run and changes nothing", async () => {
    const leaf = await leafOf(["science", "climate"]);
    await db.budgetNode.update({ where: { id: leaf.id }, data: { weight: 7 } });
    const before = await sshareTree();
    const result = await sync("--dry-run");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `sacctmgr -i modify account where name=science.climate cluster=${slurmCluster} set fairshare=7\n`,
    );
    expect(await sshareTree()).toEqual(before);
  });

  it("follows a rename and a removal: new account with its users, old ones gone", async () => {
    const renamed = await leafOf(["language", "lm-eval"]);
    await db.budgetNode.update({ where: { id: renamed.id }, data: { name: "evals" } });
    const removed = await leafOf(["vision", "vision-rl"]);
    await db.budgetNode.update({ where: { id: removed.id }, data: { removedAt: new Date() } });
    const result = await sync();
    expect(result.stderr).toMatch(/changes applied/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("add account language.evals parent=language");
    expect(result.stdout).toContain("delete account where name=language.lm-eval");
    expect(result.stdout).toContain("delete account where name=vision.vision-rl");
    const wanted = await wantedAccounts();
    await expect.poll(sshareTree, { timeout: 10_000 }).toEqual(expectedTree(wanted));
    expect(await sshareTree()).not.toHaveProperty("language.lm-eval");
    expect((await sbatch("language.lm-eval")).ok).toBe(false);
    const accepted = await sbatch("language.evals");
    expect(accepted.ok).toBe(true);
    await run("scancel", [accepted.jobId!]);
    expect((await sync()).stderr).toMatch(/nothing to change/);
  });

  it("reports an account it cannot delete (a running job), applies the rest, exits 1", async () => {
    const job = await sbatch("language.evals");
    await run("scontrol", ["release", job.jobId!]);
    await expect
      .poll(async () => (await run("squeue", ["-h", "-j", job.jobId!, "-o", "%T"])).stdout.trim(), {
        timeout: 15_000,
      })
      .toBe("RUNNING");
    const leaf = await leafOf(["language", "evals"]);
    await db.budgetNode.update({ where: { id: leaf.id }, data: { removedAt: new Date() } });
    const other = await leafOf(["science", "climate"]);
    await db.budgetNode.update({ where: { id: other.id }, data: { weight: 1 } });

    const blocked = await sync();
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(/FAILED sacctmgr -i delete .*Job\(s\) active/);
    expect(blocked.stdout).toContain("where name=science.climate");
    expect((await sshareTree())["science.climate"]?.shares).toBe("1");
    expect(await sshareTree()).toHaveProperty("language.evals");

    await run("scancel", [job.jobId!]);
    await expect
      .poll(async () => (await run("squeue", ["-h", "-u", "nobody", "-t", "R,CG"])).stdout.trim(), {
        timeout: 20_000,
      })
      .toBe("");
    expect((await sync()).code).toBe(0);
    expect(await sshareTree()).not.toHaveProperty("language.evals");
  });

  it("refuses two budgets that map to one account, changing nothing", async () => {
    const leaf = await leafOf(["science", "climate"]);
    const twin = await db.budgetNode.create({
      data: { parentId: leaf.parentId, name: "Climate", weight: 1 },
    });
    const result = await sync();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/409 .*would share the SLURM account "science.climate"/);
    await db.budgetNode.delete({ where: { id: twin.id } });
  });

  it("says what is wrong with a bad token, an unreachable server or no SLURM tools", async () => {
    const token = process.env.ALLOT_TOKEN;
    process.env.ALLOT_TOKEN = "allot_c_not-a-token";
    const badToken = await sync();
    process.env.ALLOT_TOKEN = token;
    expect(badToken.code).toBe(4);
    expect(badToken.stderr).toMatch(/401 .*unknown or revoked.*ALLOT_TOKEN must be cluster/);

    const unreachable = await main(
      ["slurm", "sync-accounts", "--cluster", CLUSTER, "--server", "http://127.0.0.1:9"],
      { stdout: () => undefined, stderr: () => undefined, isStderrTty: false } as unknown as CliIo,
    );
    expect(unreachable).toBe(3);

    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    const noTools = await sync().finally(() => (process.env.PATH = path));
    expect(noTools.code).toBe(1);
    expect(noTools.stderr).toMatch(/scontrol show config not installed/);
  });
});
